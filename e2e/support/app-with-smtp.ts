import { expect } from "@playwright/test";
import { startSmtpSink, type TReceivedMail, type TSmtpSink } from "../../server/domain/mail/test-support/smtp-sink";
import { startSecondApp } from "./second-app";

export type TAppWithSmtp = { baseURL: string; sink: TSmtpSink; stop(): Promise<void> };

/**
 * A second app server (second-app.ts) for specs that read real mail: SMTP_URL points at a real SMTP server on
 * loopback (the mail tests' sink), so every message the worker sends is received and can be read. The shared
 * webServer keeps the outbox transport the other specs expect.
 */
export async function startAppWithSmtp(port: number, env: Record<string, string> = {}): Promise<TAppWithSmtp> {
  const sink = await startSmtpSink();
  const app = await startSecondApp(port, "smtp", { SMTP_URL: sink.url, MAIL_FROM: "Foliosign <signing@example.com>", ...env });
  return {
    baseURL: app.baseURL,
    sink,
    async stop() {
      await app.stop();
      await sink.close();
    },
  };
}

/** The newest message to `to` whose subject matches, waited for (the worker sends within a poll or two). */
export async function receivedMail(sink: TSmtpSink, to: string, subject: RegExp): Promise<TReceivedMail> {
  let found: TReceivedMail | undefined;
  await expect
    .poll(
      () => {
        found = sink.received.findLast((m) => m.to.includes(to) && subject.test(m.subject));
        return Boolean(found);
      },
      { message: `a mail to ${to} matching ${subject}`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

/** The signing page's path (/sign/…) in a message's plain text. */
export function signingPath(mail: TReceivedMail): string {
  const url = /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(url, `a signing link in “${mail.subject}”`).toBeTruthy();
  return new URL(url!).pathname;
}
