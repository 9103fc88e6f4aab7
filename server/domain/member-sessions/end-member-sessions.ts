import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { deleteMemberSessions } from "./delete-member-sessions";
import { describeDevice } from "./describe-device";
import { assertMember } from "./find-member";
import type { TEndedMemberSession, TEndedOtherSessions } from "./schemas";

export const OWN_SESSIONS = "Sign out your own sessions on Your account";

/**
 * The owner signs a member out everywhere (a lost laptop, a shared computer): every session of theirs in the
 * organisation ends at its next request. Their password still works — a reset link or removing them locks them
 * out. 404 for someone who is not a member; 409 for the owner themselves. With no session to end, nothing is written.
 */
export async function endMemberSessions(db: Db, actor: TActor, input: { userId: string }): Promise<TEndedOtherSessions> {
  if (input.userId === actor.user.id) throw errors.conflict(OWN_SESSIONS);
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    await assertMember(tx, orgId, input.userId);
    const ended = await deleteMemberSessions(tx, { organisationId: orgId, userId: input.userId });
    if (ended.length > 0) {
      await auditChange(tx, actor, { id: input.userId, organisationId: orgId, workspaceId: null }, "member.sessions_ended", { sessionIds: ended });
    }
    return { ended: ended.length };
  });
}

/**
 * The owner signs a member out of one session (the browser left signed in on a shared computer), the others keep
 * working. 404 for someone who is not a member, and for a session that is not theirs here or has ended; 409 for the
 * owner themselves (their own sessions are on Your account).
 */
export async function endMemberSession(db: Db, actor: TActor, input: { userId: string; sessionId: string }): Promise<TEndedMemberSession> {
  if (input.userId === actor.user.id) throw errors.conflict(OWN_SESSIONS);
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    await assertMember(tx, orgId, input.userId);
    const [ended] = await tx
      .delete(memberSessions)
      .where(and(eq(memberSessions.id, input.sessionId), eq(memberSessions.userId, input.userId), eq(memberSessions.organisationId, orgId)))
      .returning({ userAgent: memberSessions.userAgent, signedInAt: memberSessions.signedInAt });
    if (!ended) throw errors.notFound("Session");
    await auditChange(tx, actor, { id: input.userId, organisationId: orgId, workspaceId: null }, "member.session_ended_by_owner", {
      sessionId: input.sessionId,
      device: describeDevice(ended.userAgent),
      signedInAt: ended.signedInAt.toISOString(),
    });
    return { id: input.sessionId, ended: true as const };
  });
}
