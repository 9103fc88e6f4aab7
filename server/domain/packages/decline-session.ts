import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/webhooks/events/with-events";
import { now } from "@/server/lib/clock";
import { auditPackageChange } from "./audit-package-change";
import { cancelOpenSessions } from "./cancel-open-sessions";
import { lockRecipientSession } from "./lock-recipient-session";
import type { TRecipientActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import { recordSessionEvent } from "./record-session-event";

/**
 * A recipient declines: SESSION_DECLINED, PACKAGE_DECLINED, then SESSION_CANCELLED for every other open
 * session (the spec's order); the package reads DECLINED.
 */
export async function declineSession(db: Db, recipient: TRecipientActor, input: { reason?: string | null } = {}): Promise<{ sessionId: string }> {
  return withEvents(db, async (tx) => {
    const { pkg, session } = await lockRecipientSession(tx, recipient.sessionId);
    const at = now();
    const reason = input.reason?.trim() || null;
    await tx
      .update(recipientSessions)
      .set({ status: "DECLINED", declinedAt: at, declineReason: reason, nextReminderAt: null, updatedAt: at })
      .where(eq(recipientSessions.id, session.id));
    const [declined] = await tx.update(packages).set({ status: "DECLINED", declinedAt: at, updatedAt: at }).where(eq(packages.id, pkg.id)).returning();
    await recordSessionEvent(tx, declined!, session, "SESSION_DECLINED", { reason });
    await recordPackageEvent(tx, declined!, "PACKAGE_DECLINED", { reason });
    await cancelOpenSessions(tx, declined!, at, session.id);
    await auditPackageChange(tx, recipient, declined!, "session.declined", { email: session.email, reason });
    return { sessionId: session.id };
  });
}
