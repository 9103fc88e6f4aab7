import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, roles, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import type { TMemberItem } from "./schemas";

/** The organisation's current members, owner first, then by name. Any member may read the list. */
export async function listMembers(db: Db, actor: TActor): Promise<TMemberItem[]> {
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
    .where(and(eq(memberships.organisationId, actor.organisation.id), isNull(users.deletedAt)))
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
