import { greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TVoidedMailInput = {
  toName: string | null;
  packageTitle: string;
  senderName: string;
  reason: string | null;
};

/** The notice to invited recipients that the sender voided the package. */
export function buildVoidedMail(input: TVoidedMailInput): TRenderedMail {
  const blocks: TMailBlock[] = [
    { kind: "p", text: greeting(input.toName) },
    { kind: "p", text: `${input.senderName} has cancelled “${input.packageTitle}”. You no longer need to sign it, and its signing link no longer works.` },
  ];
  if (input.reason?.trim()) blocks.push({ kind: "quote", label: "Reason:", text: input.reason.trim() });
  return renderMail({ subject: `Cancelled: “${input.packageTitle}”`, blocks });
}
