import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";
import { recordSessionEvent } from "./record-session-event";

/** Sent and not yet finished: the sessions a cancellation concerns (a recipient whose turn has not come is not open). */
export const OPEN_SESSION_STATUSES = ["SENT", "OPENED"] as const;

/**
 * Cancels every open session of an ending package, in signing order, each with its SESSION_CANCELLED.
 * `exceptSessionId` leaves the session that caused the end (a decline) alone. Their links keep their hash so
 * they open the signing page's end page ("voided", "expired"…); a closed session can do nothing through them.
 */
export async function cancelOpenSessions(tx: Db, pkg: TPackageRow, at: Date, exceptSessionId?: string): Promise<number> {
  const where = [eq(recipientSessions.packageId, pkg.id), inArray(recipientSessions.status, [...OPEN_SESSION_STATUSES])];
  if (exceptSessionId) where.push(ne(recipientSessions.id, exceptSessionId));
  const open = await tx
    .update(recipientSessions)
    .set({ status: "CANCELLED", nextReminderAt: null, updatedAt: at })
    .where(and(...where))
    .returning();
  open.sort((a, b) => a.position - b.position);
  for (const session of open) await recordSessionEvent(tx, pkg, session, "SESSION_CANCELLED", {});
  return open.length;
}
