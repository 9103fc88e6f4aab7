/**
 * "Forgot your password?" by e-mail (docs/decisions/passwords.md): a one-time reset link (1 hour) sent straight
 * through SMTP to a member who has a password. Only with a mail server: the outbox (no SMTP_URL) is readable by
 * members on the Mail page, so a reset link must never wait there (409, and the page offers the other ways).
 * The answer is the same whether the address is a member's or not, and the mail is sent after it (its SMTP time
 * says nothing either); at most one link a member every RESEND_AFTER_MS, so the form cannot be used to flood a
 * mailbox (each request from an address is also counted by the route's rate limit).
 */
import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, users } from "@/server/db/schema";
import { buildPasswordResetMail } from "@/server/domain/mail/templates/build-password-reset-mail";
import { configuredMailTransport, mailErrorText, type TMailTransport } from "@/server/domain/mail/transport";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import { insertPasswordLink, lockLinkMember } from "./passwords";

export const EMAILED_RESET_TTL_MS = 60 * 60 * 1000;
export const RESEND_AFTER_MS = 5 * 60 * 1000;
export const NO_MAIL_SERVER = "This server sends no mail: ask the owner of your organisation for a reset link";

export type TResetRequestDeps = {
  transport?: TMailTransport;
  /** Hears the sending of the mail, which the request does not wait for (tests wait for it). */
  sending?: (sent: Promise<void>) => void;
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
    const sent = transport.send({ to: { email: issued.user.email, name: issued.user.name }, ...mail }).then(
      () => undefined,
      // The link is never logged: the mail's address and the server's answer are enough to act on.
      (err: unknown) => logger().warn({ to: issued.user.email, error: mailErrorText(err) }, "password reset mail not sent"),
    );
    deps.sending?.(sent);
  }
  return { requested: true };
}
