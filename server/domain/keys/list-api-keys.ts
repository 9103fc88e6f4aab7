import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, memberships, roles, users, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { keyInoperativeReason } from "./key-inoperative-reason";
import type { TApiKeyListItem } from "./schemas";

export function apiKeyStatus(key: { expiresAt: Date | null; revokedAt: Date | null }, at: Date): Pick<TApiKeyListItem, "status" | "statusAt"> {
  if (key.revokedAt) return { status: "REVOKED", statusAt: key.revokedAt };
  if (key.expiresAt && key.expiresAt.getTime() <= at.getTime()) return { status: "EXPIRED", statusAt: key.expiresAt };
  return { status: "ACTIVE", statusAt: null };
}

/** Every key of the owner's organisation, newest first, revoked ones included (they stay listed as Revoked). */
export async function listApiKeys(db: Db, actor: TActor): Promise<TApiKeyListItem[]> {
  const rows = await db
    .select({
      key: apiKeys,
      role: { id: roles.id, name: roles.name },
      roleApiAccess: roles.apiAccess,
      issuedBy: { id: users.id, name: users.name, email: users.email },
      issuerDeletedAt: users.deletedAt,
      issuerMembershipId: memberships.id,
      workspace: { id: workspaces.id, name: workspaces.name, slug: workspaces.slug },
    })
    .from(apiKeys)
    .innerJoin(roles, eq(roles.id, apiKeys.roleId))
    .innerJoin(users, eq(users.id, apiKeys.issuedByUserId))
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .leftJoin(memberships, and(eq(memberships.userId, apiKeys.issuedByUserId), eq(memberships.organisationId, apiKeys.organisationId)))
    .where(eq(apiKeys.organisationId, actor.organisation.id))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const at = now();
  return rows.map(({ key, role, roleApiAccess, issuedBy, issuerDeletedAt, issuerMembershipId, workspace }) => {
    const status = apiKeyStatus(key, at);
    const inoperativeReason =
      status.status === "ACTIVE"
        ? keyInoperativeReason({ roleApiAccess, issuerDeleted: issuerDeletedAt !== null, issuerIsMember: issuerMembershipId !== null })
        : null;
    return {
      id: key.id,
      name: key.name,
      lastUsedAt: key.lastUsedAt,
      prefix: key.prefix,
      role,
      issuedBy,
      workspace,
      ...status,
      inoperativeReason,
      expiresAt: key.expiresAt,
      revokedAt: key.revokedAt,
      createdAt: key.createdAt,
    };
  });
}
