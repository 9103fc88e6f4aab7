import { eq, sql } from "drizzle-orm";
import { builtWrite, valueSlot } from "@/server/db/driver";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { queuePackageMail, type TMailPackage } from "@/server/domain/mail/queue-package-mail";
import type { TPackageRow } from "./find-package";
import { firstReminderAt } from "./first-reminder-at";
import { issueSigningToken } from "./issue-signing-token";
import { loadMailPackage } from "./load-mail-package";
import { recordSessionEvent } from "./record-session-event";

export type TSessionRow = typeof recipientSessions.$inferSelect;

type TInviteValues = { id: string; tokenHash: string; tokenCiphertext: string; at: Date };
/**
 * The session's update, built once and prepared (server/db/driver/prepared.ts, `builtWrite`; issue 26): one text with a
 * first reminder, one without (a null reminder time is written as a literal, so it is another text).
 */
const invitedSession = (nextReminderAt: Date | null) => (db: Db) =>
  db
    .update(recipientSessions)
    .set({
      status: "SENT",
      tokenHash: valueSlot<string>("tokenHash"),
      tokenCiphertext: valueSlot<string>("tokenCiphertext"),
      tokenExpiresAt: null,
      sentAt: valueSlot<Date>("at"),
      openedAt: null,
      remindersSent: 0,
      nextReminderAt,
      updatedAt: valueSlot<Date>("at"),
    })
    .where(eq(recipientSessions.id, sql.placeholder("id")))
    .returning();
const markInvited = builtWrite<TInviteValues & { nextReminderAt: Date }, TSessionRow>(
  "invite: session SENT",
  invitedSession(valueSlot<Date>("nextReminderAt")),
);
const markInvitedWithoutReminder = builtWrite<TInviteValues, TSessionRow>("invite: session SENT, no reminder", invitedSession(null));

/**
 * It is this recipient's turn: the session becomes SENT with a fresh signing token (any earlier link is
 * revoked), its reminder schedule starts, SESSION_SENT is recorded and the invitation mail is queued — all in
 * the caller's transaction, so the event and the mail commit or roll back with the change. Every SESSION_SENT
 * goes through here (first send, sequential advance, scheduled and bulk send, corrections). The raw token is
 * returned (tests follow it), with the session as updated; only its hash and its encrypted copy are stored.
 */
export async function inviteSession(
  tx: Db,
  pkg: TPackageRow,
  session: TSessionRow,
  at: Date,
  /** The package as its mail needs it, when the caller read its owner already (the send). */
  mailPackage?: TMailPackage,
): Promise<{ token: string; session: TSessionRow }> {
  const { token, tokenHash, tokenCiphertext } = issueSigningToken();
  const nextReminderAt = firstReminderAt(pkg.reminders, at);
  const values = { id: session.id, tokenHash, tokenCiphertext, at };
  const [invited] = nextReminderAt ? await markInvited(tx, { ...values, nextReminderAt }) : await markInvitedWithoutReminder(tx, values);
  await recordSessionEvent(tx, pkg, session, "SESSION_SENT", {});
  await queuePackageMail(tx, {
    kind: "INVITATION",
    pkg: mailPackage ?? (await loadMailPackage(tx, pkg)),
    recipient: { sessionId: session.id, email: session.email, name: session.name },
    token,
  });
  return { token, session: invited! };
}
