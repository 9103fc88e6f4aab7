import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { auditChange } from "@/server/domain/audit/audit-change";
import { lockRecipientSession } from "./lock-recipient-session";
import type { TRecipientActor } from "./recipient-actor";
import { recordSessionEvent } from "@/server/domain/packages/record-session-event";

/**
 * A recipient opens their session: the first open makes it OPENED with SESSION_OPENED (once) and, for the
 * package's first viewer, sets `firstViewedAt` (the list's VIEWED filter). Opening again changes nothing.
 */
export async function openSession(db: Db, recipient: TRecipientActor): Promise<{ sessionId: string; opened: boolean }> {
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientSession(tx, recipient.sessionId);
    if (session.status !== "SENT") return { sessionId: session.id, opened: false };
    const at = now();
    await tx
      .update(recipientSessions)
      .set({ status: "OPENED", openedAt: at, clientAddress: recipient.clientAddress, userAgent: recipient.userAgent, updatedAt: at })
      .where(eq(recipientSessions.id, session.id));
    if (!pkg.firstViewedAt) await tx.update(packages).set({ firstViewedAt: at, updatedAt: at }).where(eq(packages.id, pkg.id));
    await recordSessionEvent(tx, pkg, session, "SESSION_OPENED", {});
    await auditChange(tx, recipient, pkg, "session.opened", { email: session.email });
    return { sessionId: session.id, opened: true };
  });
}
