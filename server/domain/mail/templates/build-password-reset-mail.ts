import { greeting, renderMail, type TRenderedMail } from "./render-mail";

export type TPasswordResetMailInput = { toName: string | null; url: string; validMinutes: number };

/** The link a member asked for on the sign-in page's "Forgot your password?" (docs/decisions/passwords.md). */
export function buildPasswordResetMail(input: TPasswordResetMailInput): TRenderedMail {
  return renderMail({
    subject: "Set a new Foliosign password",
    blocks: [
      { kind: "p", text: greeting(input.toName) },
      { kind: "p", text: `Someone asked to set a new password for your Foliosign account. The link works once, for ${input.validMinutes} minutes.` },
      { kind: "button", label: "Choose a new password", url: input.url },
      { kind: "small", text: "If it was not you, ignore this message: your password stays as it is." },
    ],
  });
}
