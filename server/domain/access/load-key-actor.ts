/**
 * The actor behind an API key value. Every refusal is the same null (the door answers 401 `Unauthorized`),
 * whatever the cause, so a caller learns nothing about which keys exist.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { epochMs, hotColumns, hotQuery, type THotRow } from "@/server/db/driver";
import { apiKeys, memberships, organisations, roles, users, workspaces } from "@/server/db/schema";
import { keyInoperativeReason } from "@/server/domain/keys/key-inoperative-reason";
import { isTestKeyValue } from "@/server/domain/keys/key-value";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import type { TActor, TKeyedActor } from "./actor";
import { organisationOf, roleOf } from "./actor-parts";

export type TKeyActor = {
  actor: TKeyedActor;
  /** The key's last-used time as read, so the door records the use once the request is admitted. */
  keyLastUsedAt: Date | null;
};

export async function loadKeyActor(db: Db, token: string, base: Pick<TActor, "requestId" | "clientAddress">): Promise<TKeyActor | null> {
  const [row] = await keyQuery(db)({ hash: sha256Hex(token) });
  if (!row) return null;
  if (row.keyExpiresAt !== null && row.keyExpiresAt <= now().getTime()) return null;
  const inoperative = keyInoperativeReason({
    roleApiAccess: row.roleApiAccess,
    issuerDeleted: row.userDeleted,
    issuerIsMember: row.membershipId !== null,
  });
  if (inoperative) return null;
  if (row.workspaceOrganisationId !== row.orgId || row.roleOrganisationId !== row.orgId) return null;
  // A key's value names its mode; one that disagrees with its workspace's (never issued so) acts nowhere.
  if (isTestKeyValue(token) !== row.workspaceIsTest) return null;

  const actor: TKeyedActor = {
    ...base,
    organisation: organisationOf({
      id: row.orgId,
      name: row.orgName,
      featurePublicApi: row.orgFeaturePublicApi,
      featureWebhooks: row.orgFeatureWebhooks,
      featureCustomFields: row.orgFeatureCustomFields,
      ipAllowlist: row.orgIpAllowlist,
    }),
    workspace: { id: row.workspaceId, name: row.workspaceName, slug: row.workspaceSlug, isDefault: row.workspaceIsDefault, isTest: row.workspaceIsTest },
    user: { id: row.userId, email: row.userEmail, name: row.userName },
    isOwner: false,
    role: roleOf(
      {
        id: row.roleId,
        name: row.roleName,
        apiAccess: row.roleApiAccess,
        templateAccess: row.roleTemplateAccess,
        canSendPackages: row.roleCanSendPackages,
        canViewAllPackages: row.roleCanViewAllPackages,
        canManageWebhooks: row.roleCanManageWebhooks,
      },
      false,
    ),
    apiKey: { id: row.keyId, name: row.keyName, prefix: row.keyPrefix },
  };
  return { actor, keyLastUsedAt: row.keyLastUsedAt === null ? null : new Date(row.keyLastUsedAt) };
}

const keyColumns = {
  keyId: apiKeys.id,
  keyName: apiKeys.name,
  keyPrefix: apiKeys.prefix,
  keyExpiresAt: epochMs(apiKeys.expiresAt),
  keyLastUsedAt: epochMs(apiKeys.lastUsedAt),
  roleId: roles.id,
  roleOrganisationId: roles.organisationId,
  roleName: roles.name,
  roleApiAccess: roles.apiAccess,
  roleTemplateAccess: roles.templateAccess,
  roleCanSendPackages: roles.canSendPackages,
  roleCanViewAllPackages: roles.canViewAllPackages,
  roleCanManageWebhooks: roles.canManageWebhooks,
  workspaceId: workspaces.id,
  workspaceOrganisationId: workspaces.organisationId,
  workspaceName: workspaces.name,
  workspaceSlug: workspaces.slug,
  workspaceIsDefault: workspaces.isDefault,
  workspaceIsTest: workspaces.isTest,
  orgId: organisations.id,
  orgName: organisations.name,
  orgFeaturePublicApi: organisations.featurePublicApi,
  orgFeatureWebhooks: organisations.featureWebhooks,
  orgFeatureCustomFields: organisations.featureCustomFields,
  orgIpAllowlist: organisations.ipAllowlist,
  userId: users.id,
  userEmail: users.email,
  userName: users.name,
  userDeleted: sql<boolean>`(${users.deletedAt} is not null)`,
  membershipId: memberships.id,
};

/**
 * Every API request runs this lookup: one statement, built once per database handle and sent straight to the
 * driver (server/db/driver/prepared.ts). `membershipId` is null when the issuer is no longer a member (left join).
 */
function keyQuery(db: Db) {
  return hotQuery<{ hash: string }, THotRow<typeof keyColumns> & { membershipId: string | null }>(
    db,
    "load_key_actor",
    () =>
      db
        .select(hotColumns(keyColumns))
        .from(apiKeys)
        .innerJoin(roles, eq(roles.id, apiKeys.roleId))
        .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
        .innerJoin(organisations, eq(organisations.id, apiKeys.organisationId))
        .innerJoin(users, eq(users.id, apiKeys.issuedByUserId))
        .leftJoin(memberships, and(eq(memberships.userId, apiKeys.issuedByUserId), eq(memberships.organisationId, apiKeys.organisationId)))
        .where(and(eq(apiKeys.hash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
        .limit(1),
    // One key by its unique hash, then primary keys: the same plan for every value.
    { plan: "generic" },
  );
}
