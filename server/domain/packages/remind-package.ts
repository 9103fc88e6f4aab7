import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { queuePackageMail } from "@/server/domain/mail/queue-package-mail";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { OPEN_SESSION_STATUSES } from "./cancel-open-sessions";
import { findPackage } from "./find-package";
import { loadMailPackage } from "./load-mail-package";
import { mailSigningToken } from "./mail-signing-token";
import type { TPackageActor } from "./package-actor";
import { recordSessionEvent } from "./record-session-event";
import type { TPackageRef, TRemindPackage } from "./schemas";

/**
 * A manual reminder to every open session (or to `sessionId`): SESSION_REMINDED with trigger `manual` each.
 * 409 unless IN_PROGRESS, or when the named session is not open; 404 for a session not on the package.
 * Manual reminders do not count against the automatic schedule's `max`. Each reminded recipient's mail is queued
 * in the same transaction, with the same link as the invitation (mailSigningToken).
 */
export async function remindPackage(db: Db, actor: TPackageActor, input: TPackageRef & TRemindPackage) {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (pkg.status !== "IN_PROGRESS") throw errors.conflict("Only IN_PROGRESS packages can be reminded");
    const where = [eq(recipientSessions.packageId, pkg.id)];
    if (input.sessionId) where.push(eq(recipientSessions.id, input.sessionId));
    const sessions = await tx
      .select()
      .from(recipientSessions)
      .where(and(...where))
      .orderBy(asc(recipientSessions.position));
    if (input.sessionId && sessions.length === 0) throw errors.notFound("Recipient session");
    const open = sessions.filter((s) => (OPEN_SESSION_STATUSES as readonly string[]).includes(s.status));
    if (input.sessionId && open.length === 0) throw errors.conflict("This recipient has no open session to remind");
    const at = now();
    const mailPkg = await loadMailPackage(tx, pkg);
    for (const s of open) {
      await recordSessionEvent(tx, pkg, s, "SESSION_REMINDED", { trigger: "manual" });
      const token = await mailSigningToken(tx, s, at, "reminder");
      await queuePackageMail(tx, { kind: "REMINDER", pkg: mailPkg, recipient: { sessionId: s.id, email: s.email, name: s.name }, token });
    }
    await auditChange(tx, actor, pkg, "package.reminded", { sessionIds: open.map((s) => s.id) });
    return { reminded: open.map((s) => s.id) };
  });
}
