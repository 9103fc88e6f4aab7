import { formatMailTime, greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TReminderMailInput = {
  recipientName: string | null;
  senderName: string;
  packageTitle: string;
  signUrl: string;
  expiresAt: Date | null;
};

/** A reminder to a recipient who has not signed yet (on SESSION_REMINDED). */
export function buildReminderMail(input: TReminderMailInput): TRenderedMail {
  const blocks: TMailBlock[] = [
    { kind: "p", text: greeting(input.recipientName) },
    { kind: "p", text: `A reminder: “${input.packageTitle}”, sent by ${input.senderName}, is still waiting for your signature.` },
    { kind: "button", label: "Review and sign", url: input.signUrl },
  ];
  if (input.expiresAt) blocks.push({ kind: "p", text: `Please sign before ${formatMailTime(input.expiresAt)}.` });
  blocks.push({ kind: "small", text: "This link is personal: please do not forward this email." });
  return renderMail({ subject: `Reminder: “${input.packageTitle}” is waiting for your signature`, blocks });
}
