/**
 * The one interface every message goes through, with two transports: SMTP (nodemailer) when SMTP_URL is set,
 * otherwise the outbox, which sends nothing — the worker marks the message KEPT and the app's Mail page shows
 * it, so a fresh install without a mail server can still follow every link.
 */
import nodemailer from "nodemailer";
import { env } from "@/server/env";
import type { TMailTransportKind } from "@/server/db/schema";

export type TOutgoingMail = { to: { email: string; name: string | null }; subject: string; html: string; text: string };

export type TMailTransport = {
  kind: TMailTransportKind;
  /** Resolves with the server's answer once it accepted the message; rejects with a TMailSendError-like error. */
  send(mail: TOutgoingMail): Promise<{ response: string }>;
  /** Connects and logs in (when the URL has credentials) without sending anything; rejects with the server's answer. */
  verify(): Promise<void>;
};

/**
 * Short timeouts on purpose: the worker holds the message's row lock (and on PGlite the one connection) while
 * it talks to the server, so a dead server must fail fast and be retried later, not stall the queue.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailTransport(config: { smtpUrl?: string; from: string }): TMailTransport {
  if (!config.smtpUrl) {
    return { kind: "outbox", send: async () => ({ response: "kept in the outbox" }), verify: async () => {} };
  }
  const smtp = nodemailer.createTransport({ url: config.smtpUrl, ...TIMEOUTS });
  return {
    kind: "smtp",
    async send(mail) {
      const info = await smtp.sendMail({
        from: config.from,
        to: mail.to.name ? { name: mail.to.name, address: mail.to.email } : mail.to.email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        // Never fetch anything a message refers to (nodemailer can resolve remote content for attachments).
        disableUrlAccess: true,
        disableFileAccess: true,
      });
      return { response: String(info.response ?? "accepted") };
    },
    async verify() {
      await smtp.verify();
    },
  };
}

let cached: TMailTransport | undefined;

/** The transport the configuration asks for (SMTP_URL, MAIL_FROM), made once per process. */
export function configuredMailTransport(): TMailTransport {
  cached ??= createMailTransport({ smtpUrl: env().SMTP_URL, from: env().MAIL_FROM });
  return cached;
}

/** SMTP replies 5xx are permanent (no such mailbox, relaying denied): retrying would fail the same way. */
export function isPermanentMailError(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/** What the Mail page shows for a failed attempt: the server's own reply when there was one. */
export function mailErrorText(err: unknown): string {
  const e = err as { response?: unknown; message?: unknown; code?: unknown } | null;
  const text = typeof e?.response === "string" && e.response ? e.response : typeof e?.message === "string" ? e.message : String(err);
  const withCode = typeof e?.code === "string" && !text.includes(e.code) ? `${e.code}: ${text}` : text;
  return withCode.slice(0, 1000);
}
