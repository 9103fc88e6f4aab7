import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, organisations, roles, workspaces } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { endOfDayInZone } from "./end-of-day";
import { generateApiKeyValue } from "./key-value";
import type { TCreateApiKey, TCreatedApiKey } from "./schemas";

/** Spec: at most 50 unrevoked keys per organisation; expired keys count until revoked. */
export const MAX_UNREVOKED_KEYS = 50;

export const keyNameTaken = (name: string) =>
  `An active API key named "${name}" already exists (names are compared regardless of case): choose another name, or revoke that key first`;

/**
 * Issues a key bound to a role holding API access and to one workspace of the owner's organisation (a test
 * workspace's key reads `fsk_test_…`). The count
 * against the cap and the insert run under a lock on the organisation row, so two concurrent creations
 * cannot both take the 50th place, nor both take a name. A name is unique among the organisation's ACTIVE keys
 * regardless of case (409), so two "Production" rows cannot sit side by side in the one key list; a revoked or
 * expired key's name may be used again (docs/decisions/case-insensitive-names.md). Owner only: the app's operation declares it (./operations.ts); the CLI
 * acts as the owner.
 */
export async function createApiKey(db: Db, actor: TActor, input: TCreateApiKey): Promise<TCreatedApiKey> {
  const expiresAt = input.expiresOn && input.timeZone ? endOfDayInZone(input.expiresOn, input.timeZone) : null;
  if (expiresAt && expiresAt.getTime() <= now().getTime()) {
    throw errors.validation({ expiresOn: ["Choose today or a later date"] });
  }
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    await tx.select({ id: organisations.id }).from(organisations).where(eq(organisations.id, orgId)).for("update");
    const [role] = await tx
      .select()
      .from(roles)
      .where(and(eq(roles.id, input.roleId), eq(roles.organisationId, orgId)));
    if (!role) throw errors.validation({ roleId: ["Choose a role of this organisation"] });
    if (!role.apiAccess) throw errors.validation({ roleId: ["This role has no API access"] });
    const [workspace] = await tx
      .select({ id: workspaces.id, isTest: workspaces.isTest })
      .from(workspaces)
      .where(and(eq(workspaces.id, input.workspaceId), eq(workspaces.organisationId, orgId)))
      // Shared with a send; a test-mode switch (FOR UPDATE) waits for this key, or this key for its new mode.
      .for("share");
    if (!workspace) throw errors.validation({ workspaceId: ["Choose a workspace of this organisation"] });
    const at = now();
    const [sameName] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.organisationId, orgId),
          isNull(apiKeys.revokedAt),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, at)),
          sql`lower(${apiKeys.name}) = ${input.name.toLowerCase()}`,
        ),
      )
      .limit(1);
    if (sameName) throw errors.conflict(keyNameTaken(input.name));
    const [used] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.organisationId, orgId), isNull(apiKeys.revokedAt)));
    if ((used?.n ?? 0) >= MAX_UNREVOKED_KEYS) {
      throw errors.conflict(
        `This organisation already has ${MAX_UNREVOKED_KEYS} API keys that are not revoked (expired keys count until they are revoked). Revoke a key to create another.`,
      );
    }
    const { value, hash, prefix } = generateApiKeyValue({ test: workspace.isTest });
    const id = newId("key");
    await tx.insert(apiKeys).values({
      id,
      organisationId: orgId,
      workspaceId: workspace.id,
      roleId: role.id,
      issuedByUserId: actor.user.id,
      name: input.name,
      prefix,
      hash,
      expiresAt,
      createdAt: at,
    });
    await auditChange(tx, actor, { id, organisationId: orgId, workspaceId: workspace.id }, "api_key.created", {
      name: input.name,
      prefix,
      roleId: role.id,
      expiresAt: expiresAt?.toISOString() ?? null,
    });
    return { id, name: input.name, prefix, value, expiresAt };
  });
}
