import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, organisations, users } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";

export type TSessionContext = { actor: TSessionActor; organisationName: string };

/**
 * Who a session's user is right now: read on every request, so removing a member, deleting a user or
 * changing a role takes effect at once instead of when the JWT expires. Null when they may no longer act.
 */
export async function loadSessionActor(db: Db, userId: string, organisationId: string): Promise<TSessionContext | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      isOwner: memberships.isOwner,
      roleId: memberships.roleId,
      organisationName: organisations.name,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(organisations, eq(organisations.id, memberships.organisationId))
    .where(and(eq(memberships.userId, userId), eq(memberships.organisationId, organisationId), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  const { organisationName, ...rest } = row;
  return { actor: { ...rest, organisationId }, organisationName };
}
