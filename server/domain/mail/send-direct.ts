import { logger } from "@/server/lib/logger";
import { isPermanentMailError, mailErrorText, type TMailTransport, type TOutgoingMail } from "./transport";

/**
 * The waits before each retry of a message sent straight through SMTP, not through the outbox (a password reset
 * link, a sign-in notice), that failed for a reason that may pass (no answer, 4xx): 5 s, 30 s, 2 min.
 */
export const DIRECT_MAIL_RETRY_MS = [5_000, 30_000, 120_000] as const;

/**
 * Sends `mail` in this process, retrying after DIRECT_MAIL_RETRY_MS while the failure may pass; rejects with the
 * last error (a 5xx refusal at once). `what` names the message in the log lines, which never carry its content.
 */
export async function sendDirect(transport: TMailTransport, mail: TOutgoingMail, what: string, wait: (ms: number) => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await transport.send(mail);
      return;
    } catch (err) {
      const delay = DIRECT_MAIL_RETRY_MS[attempt];
      if (delay === undefined || isPermanentMailError(err)) throw err;
      logger().info({ to: mail.to.email, error: mailErrorText(err), retryInMs: delay }, `${what} not sent yet; trying again`);
      await wait(delay);
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
