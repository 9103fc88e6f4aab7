import { formatMailTime, greeting, renderMail, type TMailBlock, type TRenderedMail } from "./render-mail";

export type TInvitationMailInput = {
  recipientName: string | null;
  senderName: string;
  packageTitle: string;
  /** The sender's message to the recipients, if any. */
  message: string | null;
  /** `${PUBLIC_URL}/sign/<token>`. */
  signUrl: string;
  /** When the package expires, if it does. */
  expiresAt: Date | null;
};

/** The invitation to review and sign (on SESSION_SENT). */
export function buildInvitationMail(input: TInvitationMailInput): TRenderedMail {
  const blocks: TMailBlock[] = [
    { kind: "p", text: greeting(input.recipientName) },
    { kind: "p", text: `${input.senderName} has sent you “${input.packageTitle}” to review and sign.` },
  ];
  if (input.message?.trim()) blocks.push({ kind: "quote", label: `Message from ${input.senderName}:`, text: input.message.trim() });
  blocks.push({ kind: "button", label: "Review and sign", url: input.signUrl });
  if (input.expiresAt) blocks.push({ kind: "p", text: `Please sign before ${formatMailTime(input.expiresAt)}.` });
  blocks.push({
    kind: "small",
    text: "This link is personal: anyone who has it can sign in your name, so please do not forward this email. If you were not expecting it, you can ignore it.",
  });
  return renderMail({ subject: `${input.senderName} invites you to sign “${input.packageTitle}”`, blocks });
}
