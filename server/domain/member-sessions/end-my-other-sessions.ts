import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { deleteMemberSessions } from "./delete-member-sessions";
import type { TEndedOtherSessions } from "./schemas";

/**
 * Signs out every session of the member's in this organisation but the one asking. With none to end, nothing is
 * written. Only a signed-in session can ask (409 otherwise: there would be no session to keep).
 */
export async function endMyOtherSessions(db: Db, actor: TActor): Promise<TEndedOtherSessions> {
  const current = actor.sessionId;
  if (!current) throw errors.conflict("Only a signed-in session can sign out the others");
  return db.transaction(async (tx) => {
    const ended = await deleteMemberSessions(tx, { organisationId: actor.organisation.id, userId: actor.user.id, keep: current });
    if (ended.length > 0) {
      await auditChange(tx, actor, { id: actor.user.id, organisationId: actor.organisation.id, workspaceId: null }, "member.other_sessions_ended", {
        sessionIds: ended,
      });
    }
    return { ended: ended.length };
  });
}
