import { asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, memberships, roles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import type { TRoleItem } from "./schemas";

/** The organisation's roles with how many members and keys use each, built-ins first. Any member may read. */
export async function listRoles(db: Db, actor: TActor): Promise<TRoleItem[]> {
  const orgId = actor.organisation.id;
  const members = db
    .select({ roleId: memberships.roleId, n: count().as("member_n") })
    .from(memberships)
    .where(eq(memberships.organisationId, orgId))
    .groupBy(memberships.roleId)
    .as("m");
  const keys = db
    .select({
      roleId: apiKeys.roleId,
      all: count().as("key_all"),
      live: sql<number>`count(*) filter (where ${apiKeys.revokedAt} is null)`.mapWith(Number).as("key_live"),
    })
    .from(apiKeys)
    .where(eq(apiKeys.organisationId, orgId))
    .groupBy(apiKeys.roleId)
    .as("k");
  const rows = await db
    .select({ role: roles, memberCount: members.n, keyAll: keys.all, keyLive: keys.live })
    .from(roles)
    .leftJoin(members, eq(members.roleId, roles.id))
    .leftJoin(keys, eq(keys.roleId, roles.id))
    .where(eq(roles.organisationId, orgId))
    .orderBy(sql`${roles.builtIn} is null`, asc(roles.name));
  return rows.map(({ role, memberCount, keyAll, keyLive }) => ({
    id: role.id,
    name: role.name,
    builtIn: role.builtIn as TRoleItem["builtIn"],
    apiAccess: role.apiAccess,
    canSendPackages: role.canSendPackages,
    canViewAllPackages: role.canViewAllPackages,
    canManageWebhooks: role.canManageWebhooks,
    templateAccess: role.templateAccess,
    memberCount: Number(memberCount ?? 0),
    keyCount: Number(keyLive ?? 0),
    deletable: role.builtIn === null && Number(memberCount ?? 0) === 0 && Number(keyAll ?? 0) === 0,
  }));
}
