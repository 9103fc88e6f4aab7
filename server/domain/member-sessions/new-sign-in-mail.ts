import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { auditEvents, organisations } from "@/server/db/schema";
import { buildNewSignInMail } from "@/server/domain/mail/templates/build-new-sign-in-mail";
import { sendDirect, sleep } from "@/server/domain/mail/send-direct";
import { mailErrorText, type TMailTransport } from "@/server/domain/mail/transport";
import { env } from "@/server/env";
import { logger } from "@/server/lib/logger";
import { describeDevice } from "./describe-device";

/** Tests hear the mail's sending, which the sign-in does not wait for, and answer retries at once. */
export type TSignInMailDeps = { transport?: TMailTransport; sending?: (sent: Promise<void>) => void; wait?: (ms: number) => Promise<void> };

/**
 * Whether the member has signed in before (a `member.signed_in` event about them): an account's first sign-in —
 * after setting up the organisation or accepting an invitation — has no familiar address to differ from.
 */
export async function hasSignedInBefore(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, "member"), eq(auditEvents.subjectId, userId), eq(auditEvents.action, "member.signed_in")))
    .limit(1);
  return row !== undefined;
}

/**
 * Tells the member, straight through SMTP, that their account signed in from an address it had not signed in
 * from in 30 days (authorize-credentials.ts decides): the device, the address, the time, and the Account page where
 * they see their sessions and change their password. Never through the outbox, which members read on the Mail
 * page. Retried while the failure may pass (send-direct.ts); a mail that cannot be sent is logged, not raised: the
 * sign-in it tells of has already happened.
 */
export async function mailNewSignIn(
  db: Db,
  transport: TMailTransport,
  user: { email: string; name: string },
  organisationId: string,
  origin: { clientAddress: string; userAgent: string | null },
  at: Date,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<void> {
  try {
    const [org] = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, organisationId));
    const mail = buildNewSignInMail({
      toName: user.name,
      email: user.email,
      organisationName: org?.name ?? "Foliosign",
      device: describeDevice(origin.userAgent),
      clientAddress: origin.clientAddress,
      at,
      accountUrl: `${env().publicUrl}/account`,
    });
    await sendDirect(transport, { to: { email: user.email, name: user.name }, ...mail }, "new sign-in mail", wait);
  } catch (err) {
    logger().warn({ to: user.email, error: mailErrorText(err) }, "new sign-in mail not sent");
  }
}
