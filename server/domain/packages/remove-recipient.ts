import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { advancePackage } from "./advance-package";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientCorrection } from "./lock-recipient-correction";
import { recordSessionEvent } from "./record-session-event";
import { touchPackage } from "./touch-package";
import type { TPackageSessionRef } from "./schemas";

/**
 * Correction: removes a recipient who has not finished. An open session raises SESSION_CANCELLED; the session
 * row and its fields are deleted, so its id disappears from the package. A sent package keeps at least one
 * recipient (409) and then moves on (the next recipient's turn, or completion if everyone left has signed).
 * Beyond a DRAFT, canSendPackages (403; assert-can-act-on.ts).
 */
export async function removeRecipient(db: Db, actor: TActor, input: TPackageSessionRef): Promise<{ id: string; deleted: true }> {
  const { packageId, sessionId } = input;
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientCorrection(tx, actor, { packageId, sessionId });
    if (session.status === "COMPLETED" || session.status === "DECLINED") throw errors.conflict("This recipient has already finished and cannot be removed");
    const sent = pkg.status === "IN_PROGRESS" || pkg.status === "ON_HOLD";
    if (sent) {
      const others = await tx.select({ id: recipientSessions.id }).from(recipientSessions).where(eq(recipientSessions.packageId, pkg.id));
      if (others.length <= 1) throw errors.conflict("A sent package keeps at least one recipient; void it instead");
    }
    const at = now();
    if (session.status === "SENT" || session.status === "OPENED") await recordSessionEvent(tx, pkg, session, "SESSION_CANCELLED", {});
    await tx.delete(recipientSessions).where(eq(recipientSessions.id, session.id));
    await tx
      .update(recipientSessions)
      .set({ position: sql`${recipientSessions.position} - 1`, updatedAt: at })
      .where(and(eq(recipientSessions.packageId, pkg.id), gt(recipientSessions.position, session.position)));
    await auditChange(tx, actor, pkg, "package.recipient_removed", { sessionId, email: session.email });
    await touchPackage(tx, pkg, at);
    await advancePackage(tx, pkg, at);
    return { id: sessionId, deleted: true as const };
  });
}
