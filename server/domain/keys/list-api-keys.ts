import { and, desc, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, memberships, roles, users, workspaces } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { assertOwner } from "@/server/domain/organisation/assert-owner";
import { now } from "@/server/lib/clock";
import { keyInoperativeReason, type TKeyInoperativeReason } from "./key-inoperative-reason";

export type TApiKeyStatus = "ACTIVE" | "EXPIRED" | "REVOKED";

/** One row of Settings > API keys: the spec's listed attributes. The value and its hash are never listed. */
export type TApiKeyListItem = {
  id: string;
  name: string;
  lastUsedAt: Date | null;
  prefix: string;
  /** "Can do". */
  role: { id: string; name: string };
  /** "Issued by" (still readable after the issuer was removed). */
  issuedBy: { id: string; name: string; email: string };
  workspace: { id: string; name: string; slug: string };
  /** Active, Expired {statusAt} or Revoked {statusAt}; revocation wins over expiry. */
  status: TApiKeyStatus;
  statusAt: Date | null;
  /**
   * Set only for an ACTIVE key that the API nevertheless refuses (401): its issuer was removed from the
   * organisation, or its role no longer has API access. The status stays the spec's; this explains it.
   */
  inoperativeReason: TKeyInoperativeReason | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
};

export function apiKeyStatus(key: { expiresAt: Date | null; revokedAt: Date | null }, at: Date): Pick<TApiKeyListItem, "status" | "statusAt"> {
  if (key.revokedAt) return { status: "REVOKED", statusAt: key.revokedAt };
  if (key.expiresAt && key.expiresAt.getTime() <= at.getTime()) return { status: "EXPIRED", statusAt: key.expiresAt };
  return { status: "ACTIVE", statusAt: null };
}

/** Every key of the owner's organisation, newest first, revoked ones included (they stay listed as Revoked). */
export async function listApiKeys(db: Db, actor: TSessionActor): Promise<TApiKeyListItem[]> {
  assertOwner(actor);
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
    .where(eq(apiKeys.organisationId, actor.organisationId))
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
