import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { queuePackageMail, type TMailPackage } from "@/server/domain/mail/queue-package-mail";
import type { TPackageRow } from "./find-package";
import { firstReminderAt } from "./first-reminder-at";
import { issueSigningToken } from "./issue-signing-token";
import { loadMailPackage } from "./load-mail-package";
import { recordSessionEvent } from "./record-session-event";

export type TSessionRow = typeof recipientSessions.$inferSelect;

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
  const [invited] = await tx
    .update(recipientSessions)
    .set({
      status: "SENT",
      tokenHash,
      tokenCiphertext,
      tokenExpiresAt: null,
      sentAt: at,
      openedAt: null,
      remindersSent: 0,
      nextReminderAt: firstReminderAt(pkg.reminders, at),
      updatedAt: at,
    })
    .where(eq(recipientSessions.id, session.id))
    .returning();
  await recordSessionEvent(tx, pkg, session, "SESSION_SENT", {});
  await queuePackageMail(tx, {
    kind: "INVITATION",
    pkg: mailPackage ?? (await loadMailPackage(tx, pkg)),
    recipient: { sessionId: session.id, email: session.email, name: session.name },
    token,
  });
  return { token, session: invited! };
}
