import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageFields, recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { advancePackage } from "@/server/domain/packages/advance-package";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientSession } from "./lock-recipient-session";
import type { TRecipientActor } from "./recipient-actor";
import { recordSessionEvent } from "@/server/domain/packages/record-session-event";
import { SigningRefusal } from "./signing-refusal";

/**
 * A recipient finishes: every required field of their session must have a value. SESSION_COMPLETED; then the
 * package moves on (advancePackage): in a sequential package the next recipient is invited, and after the
 * last one the package completes. The status change is conditional (SENT/OPENED → COMPLETED) under the
 * package lock, so a double submit completes once and the second is refused as FINISHED.
 */
export async function completeSession(db: Db, recipient: TRecipientActor): Promise<{ sessionId: string; packageStatus: string }> {
  return withEvents(db, async (tx) => completeLockedSession(tx, recipient, await lockRecipientSession(tx, recipient.sessionId)));
}

/** The same, inside the caller's transaction, for a session it has already locked (lockRecipientSession). */
export async function completeLockedSession(
  tx: Db,
  recipient: TRecipientActor,
  { pkg, session }: { pkg: TPackageRow; session: TSessionRow },
): Promise<{ sessionId: string; packageStatus: string }> {
  const missing = await tx
    .select({ id: packageFields.id })
    .from(packageFields)
    .where(and(eq(packageFields.sessionId, session.id), eq(packageFields.required, true), isNull(packageFields.value), isNull(packageFields.valueStorageKey)))
    .limit(1);
  if (missing.length > 0) throw new SigningRefusal("FIELDS_MISSING");
  const at = now();
  const done = await tx
    .update(recipientSessions)
    .set({ status: "COMPLETED", completedAt: at, nextReminderAt: null, updatedAt: at })
    .where(and(eq(recipientSessions.id, session.id), inArray(recipientSessions.status, ["SENT", "OPENED"])))
    .returning();
  if (done.length === 0) throw new SigningRefusal("FINISHED");
  await recordSessionEvent(tx, pkg, session, "SESSION_COMPLETED", {});
  await auditChange(tx, recipient, pkg, "session.completed", { email: session.email });
  const after = await advancePackage(tx, pkg, at);
  return { sessionId: session.id, packageStatus: after.status };
}
