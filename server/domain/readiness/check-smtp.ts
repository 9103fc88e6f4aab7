import { buildTestMail } from "@/server/domain/mail/templates/build-test-mail";
import { mailErrorText } from "@/server/domain/mail/transport";
import { redactUrl } from "@/server/lib/redact-url";
import { check, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Mail (SMTP)";

/** SMTP_URL without its password: scheme, user (***), host and port. */
function shownSmtpUrl(url: string): string {
  return redactUrl(url).replace(/\/$/, "");
}

/**
 * SMTP_URL unset → the outbox (nothing leaves the server). Set → connect and log in (nodemailer's verify: EHLO,
 * STARTTLS when offered, AUTH when the URL has credentials), sending nothing. A test message is sent only on
 * request (`sendReadinessTestMessage`).
 */
export async function checkSmtp(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const url = ctx.env.SMTP_URL;
  if (!url) {
    return check(
      "smtp",
      TITLE,
      "warn",
      "Outbox only: no SMTP server is configured, so no mail leaves this server. Invitations, reminders and copies are kept on the Mail page.",
      "To send mail, set SMTP_URL to your mail server's smtp:// or smtps:// URL with its user name and password, set MAIL_FROM, and restart.",
      [{ label: "Transport", value: "outbox" }],
    );
  }
  const facts = [
    { label: "SMTP_URL", value: shownSmtpUrl(url) },
    { label: "MAIL_FROM", value: ctx.env.MAIL_FROM },
  ];
  try {
    await ctx.mailTransport().verify();
  } catch (err) {
    const text = mailErrorText(err);
    const auth = /auth|535|534|credentials/i.test(text);
    return check(
      "smtp",
      TITLE,
      "fail",
      auth ? `The SMTP server refused the login: ${text}` : `Cannot talk to the SMTP server: ${text}`,
      auth
        ? "Check the user name and password in SMTP_URL (special characters must be percent-encoded)."
        : "Check the host and port in SMTP_URL (smtps:// for port 465, smtp:// for 587 or 25) and that this server may connect to it.",
      facts,
    );
  }
  if (/@localhost>?\s*$/i.test(ctx.env.MAIL_FROM)) {
    return check(
      "smtp",
      TITLE,
      "warn",
      "The SMTP server accepts the connection and the login, but MAIL_FROM is an address at localhost, which most mail servers refuse or file as spam.",
      "Set MAIL_FROM to an address of your domain, e.g. MAIL_FROM=Foliosign <signing@example.com>.",
      facts,
    );
  }
  return check("smtp", TITLE, "ok", "The SMTP server accepts the connection and the login.", "Send a test message to confirm delivery to an inbox.", facts);
}

export type TTestMessageResult = { status: "ok" | "fail"; message: string };

/** Sends one real message through SMTP_URL now (not through the queue), and says what the server answered. */
export async function sendReadinessTestMessage(ctx: TReadinessContext, to: string): Promise<TTestMessageResult> {
  if (!ctx.env.SMTP_URL) return { status: "fail", message: "No SMTP server is configured (SMTP_URL): there is nothing to send through." };
  try {
    const mail = buildTestMail({ toName: null, instanceUrl: ctx.env.publicUrl, requestedAt: ctx.now() });
    const { response } = await ctx.mailTransport().send({ to: { email: to, name: null }, ...mail });
    return { status: "ok", message: `The SMTP server accepted a test message to ${to}: ${response}` };
  } catch (err) {
    return { status: "fail", message: `The SMTP server did not accept a test message to ${to}: ${mailErrorText(err)}` };
  }
}
