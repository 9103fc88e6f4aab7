/**
 * The mail job (a declared job, server/lib/jobs.ts): a QUEUED message whose `next_attempt_at` has passed is
 * the due item, claimed FOR UPDATE SKIP LOCKED, one message per transaction, so any number of workers send
 * each message once. The handler never throws for a refused message: it writes the outcome into the row
 * (the state is the schedule) —
 * - outbox transport, or a test workspace's message (`test`, whatever the transport): KEPT at once;
 * - SMTP accepted: SENT;
 * - SMTP refused or unreachable: the attempt and its error are recorded and the message is due again after
 *   1, 2, 4… minutes (doubling); after MAX_MAIL_ATTEMPTS, or at once on a permanent 5xx refusal, FAILED.
 * Mail is at-least-once: a worker that dies after the server accepted a message but before its commit leaves
 * it QUEUED, and it is sent again.
 */
import { and, eq, lte, notInArray } from "drizzle-orm";
import { mailMessages } from "@/server/db/schema";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { logger } from "@/server/lib/logger";
import { redactSigningLinks } from "./redact-signing-links";
import { configuredMailTransport, isPermanentMailError, mailErrorText, type TMailTransport } from "./transport";

export const MAX_MAIL_ATTEMPTS = 8;
const MINUTE = 60_000;

/** The wait after the n-th failed attempt (1-based): 1, 2, 4, 8, 16, 32, 64 minutes. */
export function mailRetryDelayMs(attempt: number): number {
  return MINUTE * 2 ** (attempt - 1);
}

/** `transport` overrides the configured one (tests); read when a message is handled, not when declared. */
export function mailJobs(opts: { transport?: () => TMailTransport } = {}) {
  const transport = opts.transport ?? configuredMailTransport;
  return {
    sendMail: defineJob<TDueItem>({
      name: "mail-send",
      budget: 50,
      async due(tx, { at, skip }) {
        const [row] = await tx
          .select({ id: mailMessages.id })
          .from(mailMessages)
          .where(and(eq(mailMessages.status, "QUEUED"), lte(mailMessages.nextAttemptAt, at), notInArray(mailMessages.id, [...skip])))
          .orderBy(mailMessages.nextAttemptAt, mailMessages.id)
          .limit(1)
          .for("update", { skipLocked: true });
        return row;
      },
      async handle(tx, item, { at }) {
        const [msg] = await tx.select().from(mailMessages).where(eq(mailMessages.id, item.id));
        if (!msg || msg.status !== "QUEUED") return;
        const t = transport();
        if (t.kind === "outbox" || msg.test) {
          await tx
            .update(mailMessages)
            .set({ status: "KEPT", transport: "outbox", nextAttemptAt: null, sentAt: at, updatedAt: at })
            .where(eq(mailMessages.id, msg.id));
          return;
        }
        const attempts = msg.attempts + 1;
        try {
          const { response } = await t.send({ to: { email: msg.toEmail, name: msg.toName }, subject: msg.subject, html: msg.html, text: msg.text });
          await tx
            .update(mailMessages)
            .set({
              status: "SENT",
              transport: "smtp",
              attempts,
              nextAttemptAt: null,
              lastError: null,
              serverResponse: response.slice(0, 1000),
              sentAt: at,
              html: redactSigningLinks(msg.html),
              text: redactSigningLinks(msg.text),
              updatedAt: at,
            })
            .where(eq(mailMessages.id, msg.id));
        } catch (err) {
          const lastError = mailErrorText(err);
          const final = attempts >= MAX_MAIL_ATTEMPTS || isPermanentMailError(err);
          logger().warn({ mailId: msg.id, attempts, final, error: lastError }, final ? "mail failed for good" : "mail attempt failed; retrying later");
          await tx
            .update(mailMessages)
            .set(
              final
                ? {
                    status: "FAILED",
                    transport: "smtp",
                    attempts,
                    nextAttemptAt: null,
                    lastError,
                    html: redactSigningLinks(msg.html),
                    text: redactSigningLinks(msg.text),
                    updatedAt: at,
                  }
                : { transport: "smtp", attempts, nextAttemptAt: new Date(at.getTime() + mailRetryDelayMs(attempts)), lastError, updatedAt: at },
            )
            .where(eq(mailMessages.id, msg.id));
        }
      },
    }),
  };
}
