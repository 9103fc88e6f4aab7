/**
 * "Forgot your password?" by e-mail (docs/decisions/passwords.md): a one-time reset link (1 hour) sent straight
 * through SMTP to a member who has a password. Only with a mail server: the outbox (no SMTP_URL) is readable by
 * members on the Mail page, so a reset link must never wait there (409, and the page offers the other ways).
 * The answer is the same whether the address is a member's or not, and the mail is sent after it (its SMTP time
 * says nothing either); at most one link a member every RESEND_AFTER_MS, so the form cannot be used to flood a
 * mailbox (each request from an address is also counted by the route's rate limit).
 *
 * The mail is not in the outbox, so it gets retries of its own, in this process: a server that is down or answers
 * 4xx is tried again after RESET_MAIL_RETRY_MS (5 s, 30 s, 2 min — well inside the link's hour). When it cannot be
 * sent (a 5xx refusal, or the last retry failed) the link is withdrawn: nobody received it, and the member's next
 * request must not be held back by the five-minute rule for a mail that never left.
 */
import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, users } from "@/server/db/schema";
import { buildPasswordResetMail } from "@/server/domain/mail/templates/build-password-reset-mail";
import { DIRECT_MAIL_RETRY_MS, sendDirect, sleep } from "@/server/domain/mail/send-direct";
import { configuredMailTransport, mailErrorText, type TMailTransport } from "@/server/domain/mail/transport";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import { errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import { insertPasswordLink, lockLinkMember } from "./passwords";

export const EMAILED_RESET_TTL_MS = 60 * 60 * 1000;
export const RESEND_AFTER_MS = 5 * 60 * 1000;
/** The waits before each retry of a reset mail that failed for a reason that may pass (no answer, 4xx). */
export const RESET_MAIL_RETRY_MS = DIRECT_MAIL_RETRY_MS;
export const NO_MAIL_SERVER = "This server sends no mail: ask the owner of your organisation for a reset link";

export type TResetRequestDeps = {
  transport?: TMailTransport;
  /** Hears the sending of the mail, which the request does not wait for (tests wait for it). */
  sending?: (sent: Promise<void>) => void;
  /** Waits before a retry (tests answer at once). */
  wait?: (ms: number) => Promise<void>;
};

export async function requestPasswordReset(db: Db, input: { email: string }, deps: TResetRequestDeps = {}): Promise<{ requested: true }> {
  const transport = deps.transport ?? configuredMailTransport();
  if (transport.kind !== "smtp") throw errors.conflict(NO_MAIL_SERVER);
  const issued = await db.transaction(async (tx) => {
    const user = await lockLinkMember(tx, and(eq(users.email, input.email), isNotNull(users.passwordHash)));
    if (!user) return null;
    const recent = await tx
      .select({ id: invites.id })
      .from(invites)
      .where(and(eq(invites.userId, user.userId), eq(invites.purpose, "reset"), gt(invites.createdAt, new Date(now().getTime() - RESEND_AFTER_MS))));
    if (recent.length > 0) return null;
    // A reset: the member has a password (the lookup above).
    const link = await insertPasswordLink(tx, { kind: "user", userId: user.userId }, user, { ttlMs: EMAILED_RESET_TTL_MS, by: "email" });
    return { user, link };
  });
  if (issued) {
    const mail = buildPasswordResetMail({
      toName: issued.user.name,
      url: `${env().publicUrl}${issued.link.path}`,
      validMinutes: EMAILED_RESET_TTL_MS / 60_000,
    });
    const sent = sendDirect(transport, { to: { email: issued.user.email, name: issued.user.name }, ...mail }, "password reset mail", deps.wait ?? sleep).then(
      () => undefined,
      async (err: unknown) => {
        // The link is never logged: the mail's address and the server's answer are enough to act on.
        logger().warn({ to: issued.user.email, error: mailErrorText(err) }, "password reset mail not sent; the link is withdrawn");
        await withdrawLink(db, issued.link.path).catch((e: unknown) =>
          logger().warn({ to: issued.user.email, error: e instanceof Error ? e.message : String(e) }, "unsent password reset link not withdrawn"),
        );
      },
    );
    deps.sending?.(sent);
  }
  return { requested: true };
}

/** Deletes the link the mail carried, unless it was used (it cannot have been: nobody received it) or replaced. */
async function withdrawLink(db: Db, path: string): Promise<void> {
  const token = path.slice(path.lastIndexOf("/") + 1);
  await db.delete(invites).where(and(eq(invites.tokenHash, sha256Hex(token)), isNull(invites.usedAt)));
}
