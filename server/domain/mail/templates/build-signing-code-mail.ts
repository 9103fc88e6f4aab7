import { greeting, renderMail, type TRenderedMail } from "./render-mail";

export type TSigningCodeMailInput = { recipientName: string | null; packageTitle: string; code: string; validMinutes: number };

/** The text before the code: redactSigningLinks (../redact-signing-links.ts) finds the code by it. */
const SIGNING_CODE_LABEL = "Your signing code:";

/**
 * The email code of signer authentication (docs/decisions/signer-authentication.md): the only message, and the
 * only place anywhere, that carries the code. No link: the recipient types or pastes it on the page they have open.
 */
export function buildSigningCodeMail(input: TSigningCodeMailInput): TRenderedMail {
  return renderMail({
    subject: `Your code to sign “${input.packageTitle}”`,
    blocks: [
      { kind: "p", text: greeting(input.recipientName) },
      { kind: "p", text: `${SIGNING_CODE_LABEL} ${input.code}` },
      {
        kind: "p",
        text: `Enter it on the signing page of “${input.packageTitle}”. It works once, for ${input.validMinutes} minutes.`,
      },
      { kind: "small", text: "If you did not ask for this code, ignore this message. Never share the code: nobody from the sender will ask you for it." },
    ],
  });
}
