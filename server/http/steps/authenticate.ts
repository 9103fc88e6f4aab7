/**
 * Bearer key → the key's context. Every refusal is the same 401 `Unauthorized`, whatever the cause, so a
 * caller learns nothing about which keys exist. The key's use is not recorded here: the pipeline records it
 * (recordKeyUse) only once every later check (workspace header, plan, IP, permission) has passed too.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, memberships, organisations, roles, users, workspaces } from "@/server/db/schema";
import { keyInoperativeReason } from "@/server/domain/keys/key-inoperative-reason";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import type { TApiContext } from "../context";
import { errors } from "../errors";

export const KEY_PREFIX = "fsk_";

export function bearerToken(req: Request): string {
  const header = req.headers.get("authorization");
  if (!header) throw errors.unauthorized();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (!token || !token.startsWith(KEY_PREFIX)) throw errors.unauthorized();
  return token;
}

export type TAuthenticated = {
  ctx: TApiContext;
  /** The key's last-used time as read, for recordKeyUse once the request is admitted. */
  keyLastUsedAt: Date | null;
};

export async function authenticate(
  db: Db,
  req: Request,
  base: Pick<TApiContext, "requestId" | "clientAddress">,
): Promise<TAuthenticated> {
  const token = bearerToken(req);
  const [row] = await db
    .select({ key: apiKeys, role: roles, workspace: workspaces, org: organisations, user: users, membershipId: memberships.id })
    .from(apiKeys)
    .innerJoin(roles, eq(roles.id, apiKeys.roleId))
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .innerJoin(organisations, eq(organisations.id, apiKeys.organisationId))
    .innerJoin(users, eq(users.id, apiKeys.issuedByUserId))
    .leftJoin(
      memberships,
      and(eq(memberships.userId, apiKeys.issuedByUserId), eq(memberships.organisationId, apiKeys.organisationId)),
    )
    .where(and(eq(apiKeys.hash, sha256Hex(token)), isNull(apiKeys.revokedAt)))
    .limit(1);
  const at = now();
  if (!row) throw errors.unauthorized();
  if (row.key.expiresAt && row.key.expiresAt.getTime() <= at.getTime()) throw errors.unauthorized();
  const inoperative = keyInoperativeReason({
    roleApiAccess: row.role.apiAccess,
    issuerDeleted: row.user.deletedAt !== null,
    issuerIsMember: row.membershipId !== null,
  });
  if (inoperative) throw errors.unauthorized();
  if (row.workspace.organisationId !== row.org.id || row.role.organisationId !== row.org.id) throw errors.unauthorized();

  const ctx: TApiContext = {
    ...base,
    organisation: {
      id: row.org.id,
      name: row.org.name,
      features: {
        publicApi: row.org.featurePublicApi,
        webhooks: row.org.featureWebhooks,
        customFields: row.org.featureCustomFields,
      },
      ipAllowlist: row.org.ipAllowlist,
    },
    workspace: {
      id: row.workspace.id,
      name: row.workspace.name,
      slug: row.workspace.slug,
      isDefault: row.workspace.isDefault,
    },
    role: {
      id: row.role.id,
      name: row.role.name,
      apiAccess: row.role.apiAccess,
      permissions: {
        canSendPackages: row.role.canSendPackages,
        canViewAllPackages: row.role.canViewAllPackages,
        canManageWebhooks: row.role.canManageWebhooks,
      },
      templateAccess: row.role.templateAccess,
    },
    apiKey: { id: row.key.id, name: row.key.name, prefix: row.key.prefix },
    actor: { userId: row.user.id, email: row.user.email, name: row.user.name },
  };
  return { ctx, keyLastUsedAt: row.key.lastUsedAt };
}
