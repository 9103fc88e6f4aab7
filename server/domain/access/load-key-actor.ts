/**
 * The actor behind an API key value. Every refusal is the same null (the door answers 401 `Unauthorized`),
 * whatever the cause, so a caller learns nothing about which keys exist.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { preparedFor } from "@/server/db/prepared";
import { apiKeys, memberships, organisations, roles, users, workspaces } from "@/server/db/schema";
import { keyInoperativeReason } from "@/server/domain/keys/key-inoperative-reason";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import type { TActor, TKeyedActor } from "./actor";
import { organisationOf, roleOf } from "./actor-parts";

export type TKeyActor = {
  actor: TKeyedActor;
  /** The key's last-used time as read, so the door records the use once the request is admitted. */
  keyLastUsedAt: Date | null;
};

export async function loadKeyActor(
  db: Db,
  token: string,
  base: Pick<TActor, "requestId" | "clientAddress">,
): Promise<TKeyActor | null> {
  const [row] = await keyQuery(db).execute({ hash: sha256Hex(token) });
  if (!row) return null;
  if (row.key.expiresAt && row.key.expiresAt.getTime() <= now().getTime()) return null;
  const inoperative = keyInoperativeReason({
    roleApiAccess: row.role.apiAccess,
    issuerDeleted: row.user.deletedAt !== null,
    issuerIsMember: row.membershipId !== null,
  });
  if (inoperative) return null;
  if (row.workspace.organisationId !== row.org.id || row.role.organisationId !== row.org.id) return null;

  const actor: TKeyedActor = {
    ...base,
    organisation: organisationOf(row.org),
    workspace: { id: row.workspace.id, name: row.workspace.name, slug: row.workspace.slug, isDefault: row.workspace.isDefault },
    user: { id: row.user.id, email: row.user.email, name: row.user.name },
    isOwner: false,
    role: roleOf(row.role, false),
    apiKey: { id: row.key.id, name: row.key.name, prefix: row.key.prefix },
  };
  return { actor, keyLastUsedAt: row.key.lastUsedAt };
}

/** Every API request runs this lookup: prepared once per database handle (server/db/prepared.ts). */
function keyQuery(db: Db) {
  return preparedFor(db, "load_key_actor", (name) =>
    db
      .select({
        key: { id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, expiresAt: apiKeys.expiresAt, lastUsedAt: apiKeys.lastUsedAt },
        role: roles,
        workspace: { id: workspaces.id, organisationId: workspaces.organisationId, name: workspaces.name, slug: workspaces.slug, isDefault: workspaces.isDefault },
        org: organisations,
        user: { id: users.id, email: users.email, name: users.name, deletedAt: users.deletedAt },
        membershipId: memberships.id,
      })
      .from(apiKeys)
      .innerJoin(roles, eq(roles.id, apiKeys.roleId))
      .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
      .innerJoin(organisations, eq(organisations.id, apiKeys.organisationId))
      .innerJoin(users, eq(users.id, apiKeys.issuedByUserId))
      .leftJoin(
        memberships,
        and(eq(memberships.userId, apiKeys.issuedByUserId), eq(memberships.organisationId, apiKeys.organisationId)),
      )
      .where(and(eq(apiKeys.hash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
      .limit(1)
      .prepare(name),
  );
}
