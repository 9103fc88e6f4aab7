import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, roles, users } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { now } from "@/server/lib/clock";

export type TMemberItem = {
  userId: string;
  name: string;
  email: string;
  role: { id: string; name: string };
  isOwner: boolean;
  /** INVITED: the member has not set a password yet (through the invite link). */
  status: "ACTIVE" | "INVITED";
  /** When the pending invite link stops working; null when there is none (or it has expired). */
  inviteExpiresAt: Date | null;
  joinedAt: Date;
};

/** The organisation's current members, owner first, then by name. Any member may read the list. */
export async function listMembers(db: Db, actor: TSessionActor): Promise<TMemberItem[]> {
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      hasPassword: users.passwordHash,
      role: { id: roles.id, name: roles.name },
      isOwner: memberships.isOwner,
      joinedAt: memberships.createdAt,
      inviteExpiresAt: invites.expiresAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .leftJoin(invites, and(eq(invites.userId, users.id), isNull(invites.usedAt), gt(invites.expiresAt, now())))
    .where(and(eq(memberships.organisationId, actor.organisationId), isNull(users.deletedAt)))
    .orderBy(desc(memberships.isOwner), asc(users.name), asc(users.id));
  const seen = new Set<string>();
  const members: TMemberItem[] = [];
  for (const { hasPassword, ...row } of rows) {
    if (seen.has(row.userId)) continue; // several pending invites: keep one row
    seen.add(row.userId);
    members.push({ ...row, status: hasPassword ? "ACTIVE" : "INVITED" });
  }
  return members;
}
