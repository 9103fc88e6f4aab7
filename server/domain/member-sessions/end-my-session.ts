import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { describeDevice } from "./describe-device";
import type { TEndedMemberSession } from "./schemas";

export const THIS_SESSION = "This is the session you are using: sign out instead";

/**
 * Signs out one of the member's other sessions: its row goes, so its next request is signed out (its browser
 * goes to the sign-in page). Another member's session, or one already ended, is 404; the current one is 409.
 */
export async function endMySession(db: Db, actor: TActor, input: { id: string }): Promise<TEndedMemberSession> {
  if (input.id === actor.sessionId) throw errors.conflict(THIS_SESSION);
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .delete(memberSessions)
      .where(and(eq(memberSessions.id, input.id), eq(memberSessions.userId, actor.user.id), eq(memberSessions.organisationId, actor.organisation.id)))
      .returning({ userAgent: memberSessions.userAgent, signedInAt: memberSessions.signedInAt });
    if (!ended) throw errors.notFound("Session");
    await auditChange(tx, actor, { id: actor.user.id, organisationId: actor.organisation.id, workspaceId: null }, "member.session_ended", {
      sessionId: input.id,
      device: describeDevice(ended.userAgent),
      signedInAt: ended.signedInAt.toISOString(),
    });
    return { id: input.id, ended: true as const };
  });
}
