import { formatMailTime, greeting, oneLine, renderMail, type TRenderedMail } from "./render-mail";

export type TNewSignInMailInput = {
  toName: string | null;
  email: string;
  organisationName: string;
  device: string;
  clientAddress: string;
  at: Date;
  /** The Account page, where the member sees their sessions and changes their password. */
  accountUrl: string;
};

/** A sign-in from an address the account had not signed in from lately (docs/decisions/member-sessions.md). */
export function buildNewSignInMail(input: TNewSignInMailInput): TRenderedMail {
  return renderMail({
    subject: "New sign-in to your Foliosign account",
    blocks: [
      { kind: "p", text: greeting(input.toName) },
      {
        kind: "p",
        text: `Your Foliosign account (${input.email}) signed in to ${oneLine(input.organisationName)} from an address it had not used in the last 30 days:`,
      },
      { kind: "p", text: `${input.device}, from ${input.clientAddress}, on ${formatMailTime(input.at)}.` },
      { kind: "button", label: "See where you’re signed in", url: input.accountUrl },
      {
        kind: "small",
        text: "If it was you, there is nothing to do. If it was not, change your password on that page at once: every other session of yours ends. The owner of your organisation can also sign you out everywhere.",
      },
    ],
  });
}
