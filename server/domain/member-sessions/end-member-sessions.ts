import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { deleteMemberSessions } from "./delete-member-sessions";
import { assertMember } from "./find-member";
import type { TEndedOtherSessions } from "./schemas";

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
