import { greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TDeclinedMailInput = {
  toName: string | null;
  packageTitle: string;
  /** Who declined. */
  declinedBy: { name: string | null; email: string };
  reason: string | null;
  audience: "owner" | "recipient";
  /** The owner's link to the package page. */
  packageUrl: string | null;
};

/** The notice that a recipient declined (the package is closed). */
export function buildDeclinedMail(input: TDeclinedMailInput): TRenderedMail {
  const who = input.declinedBy.name ? `${input.declinedBy.name} (${input.declinedBy.email})` : input.declinedBy.email;
  const blocks: TMailBlock[] = [
    { kind: "p", text: greeting(input.toName) },
    { kind: "p", text: `${who} declined to sign “${input.packageTitle}”, so it will not be completed.` },
  ];
  if (input.reason?.trim()) blocks.push({ kind: "quote", label: "Their reason:", text: input.reason.trim() });
  if (input.audience === "owner" && input.packageUrl) {
    blocks.push({ kind: "button", label: "Open the package", url: input.packageUrl });
  } else {
    blocks.push({ kind: "p", text: "You do not need to do anything; your signing link no longer works." });
  }
  return renderMail({ subject: `Declined: “${input.packageTitle}”`, blocks });
}
