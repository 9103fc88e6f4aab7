import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { expect } from "@playwright/test";
import { startSmtpSink, type TReceivedMail, type TSmtpSink } from "../../server/domain/mail/test-support/smtp-sink";

export type TAppWithSmtp = { baseURL: string; sink: TSmtpSink; stop(): Promise<void> };

/**
 * A second app server for specs that read real mail: the same build Playwright's webServer made (SKIP_BUILD),
 * its own port and PGlite directory, and SMTP_URL pointing at a real SMTP server on loopback (the mail tests'
 * sink), so every message the worker sends is received and can be read. The shared webServer keeps the outbox
 * transport the other specs expect.
 */
export async function startAppWithSmtp(port: number): Promise<TAppWithSmtp> {
  const sink = await startSmtpSink();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = `.data/e2e-${port}-smtp`;
  rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ["node_modules/tsx/dist/cli.mjs", "server/start.ts"], {
    env: {
      ...process.env,
      SKIP_BUILD: "1",
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: baseURL,
      SMTP_URL: sink.url,
      MAIL_FROM: "Foliosign <signing@example.com>",
      LOG_LEVEL: "warn",
      WORKER_POLL_MS: "200",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`the app with SMTP exited (${child.exitCode})`);
        return fetch(`${baseURL}/signin`).then(
          (r) => r.status,
          () => 0,
        );
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(200);
  return {
    baseURL,
    sink,
    async stop() {
      child.kill("SIGTERM");
      await exited;
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
