import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "./find-package";
import { firstReminderAt } from "./first-reminder-at";
import { issueSigningToken } from "./issue-signing-token";
import { recordSessionEvent } from "./record-session-event";

export type TSessionRow = typeof recipientSessions.$inferSelect;

/**
 * It is this recipient's turn: the session becomes SENT with a fresh signing token (any earlier link is
 * revoked), its reminder schedule starts, and SESSION_SENT is recorded. The raw token is returned for the
 * invitation mail only (sent by the notifications issue); it is not stored.
 */
export async function inviteSession(tx: Db, pkg: TPackageRow, session: TSessionRow, at: Date): Promise<{ token: string }> {
  const { token, tokenHash } = issueSigningToken();
  await tx
    .update(recipientSessions)
    .set({
      status: "SENT",
      tokenHash,
      tokenExpiresAt: null,
      sentAt: at,
      openedAt: null,
      remindersSent: 0,
      nextReminderAt: firstReminderAt(pkg.reminders, at),
      updatedAt: at,
    })
    .where(eq(recipientSessions.id, session.id));
  await recordSessionEvent(tx, pkg, session, "SESSION_SENT", {});
  return { token };
}
