import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberSessions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import type { TEndedOtherSessions } from "./schemas";

/**
 * Signs out every session of the member's in this organisation but the one asking. With none to end, nothing is
 * written. Only a signed-in session can ask (409 otherwise: there would be no session to keep).
 */
export async function endMyOtherSessions(db: Db, actor: TActor): Promise<TEndedOtherSessions> {
  const current = actor.sessionId;
  if (!current) throw errors.conflict("Only a signed-in session can sign out the others");
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(memberSessions)
      .where(and(eq(memberSessions.userId, actor.user.id), eq(memberSessions.organisationId, actor.organisation.id), ne(memberSessions.id, current)))
      .returning({ id: memberSessions.id });
    if (ended.length > 0) {
      await auditChange(tx, actor, { id: actor.user.id, organisationId: actor.organisation.id, workspaceId: null }, "member.other_sessions_ended", {
        sessionIds: ended.map((row) => row.id),
      });
    }
    return { ended: ended.length };
  });
}
