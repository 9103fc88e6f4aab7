import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { assertMember } from "./find-member";
import { listSessions } from "./list-my-sessions";
import type { TMemberSession } from "./schemas";

/**
 * The owner reads where a member is signed in (Members → Sessions), before signing them out everywhere: the
 * member's live sessions in this organisation by last activity, the owner's own session marked current when
 * the owner looks at themselves. 404 for someone who is not a member.
 */
export async function listMemberSessions(db: Db, actor: TActor, input: { userId: string }): Promise<TMemberSession[]> {
  await assertMember(db, actor.organisation.id, input.userId);
  return listSessions(db, { userId: input.userId, organisationId: actor.organisation.id }, actor.sessionId ?? "");
}
