import { and, asc, eq, isNotNull, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { queuePackageMail } from "@/server/domain/mail/queue-package-mail";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { auditChange } from "@/server/domain/audit/audit-change";
import { cancelOpenSessions } from "@/server/domain/packages/cancel-open-sessions";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import { forgetSigningTokens } from "@/server/domain/packages/forget-signing-tokens";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { loadMailPackage } from "@/server/domain/packages/load-mail-package";
import { lockRecipientSession } from "./lock-recipient-session";
import type { TRecipientActor } from "./recipient-actor";
import { recordPackageEvent } from "@/server/domain/packages/record-package-event";
import { recordSessionEvent } from "@/server/domain/packages/record-session-event";

/**
 * A recipient declines: SESSION_DECLINED, PACKAGE_DECLINED, then SESSION_CANCELLED for every other open
 * session (the spec's order); the package reads DECLINED. The decline notice (with the reason) goes to the owner
 * and to the other recipients who were invited, in the same transaction.
 */
export async function declineSession(db: Db, recipient: TRecipientActor, input: { reason?: string | null } = {}): Promise<{ sessionId: string }> {
  return withEvents(db, async (tx) => declineLockedSession(tx, recipient, await lockRecipientSession(tx, recipient.sessionId), input));
}

/** The same, inside the caller's transaction, for a session it has already locked (lockRecipientSession). */
export async function declineLockedSession(
  tx: Db,
  recipient: TRecipientActor,
  { pkg, session }: { pkg: TPackageRow; session: TSessionRow },
  input: { reason?: string | null } = {},
): Promise<{ sessionId: string }> {
  const at = now();
  const reason = input.reason?.trim() || null;
  await tx
    .update(recipientSessions)
    .set({ status: "DECLINED", declinedAt: at, declineReason: reason, nextReminderAt: null, updatedAt: at })
    .where(eq(recipientSessions.id, session.id));
  const [declined] = await tx.update(packages).set({ status: "DECLINED", declinedAt: at, updatedAt: at }).where(eq(packages.id, pkg.id)).returning();
  await recordSessionEvent(tx, declined!, session, "SESSION_DECLINED", { reason });
  await recordPackageEvent(tx, declined!, "PACKAGE_DECLINED", { reason });
  // The notice: the owner, and the other recipients who were invited (those whose turn never came knew nothing).
  const others = await tx
    .select()
    .from(recipientSessions)
    .where(and(eq(recipientSessions.packageId, pkg.id), ne(recipientSessions.id, session.id), isNotNull(recipientSessions.sentAt)))
    .orderBy(asc(recipientSessions.position));
  await queuePackageMail(tx, {
    kind: "DECLINED",
    pkg: await loadMailPackage(tx, declined!),
    declinedBy: { sessionId: session.id, email: session.email, name: session.name },
    reason,
    recipients: others.map((s) => ({ sessionId: s.id, email: s.email, name: s.name })),
  });
  await cancelOpenSessions(tx, declined!, at, session.id);
  await forgetSigningTokens(tx, pkg.id);
  await auditChange(tx, recipient, declined!, "session.declined", { email: session.email, reason });
  return { sessionId: session.id };
}
