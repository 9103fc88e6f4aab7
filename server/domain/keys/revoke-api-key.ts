import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import type { TRevokeApiKey, TRevokedApiKey } from "./schemas";

/**
 * Revokes a key at once and for good: the very next request with it is 401. Revoking an already revoked key
 * is a no-op that reports the original revocation (`alreadyRevoked: true`) and records no second audit event,
 * so a double click or a retried request is harmless. A key of another organisation is 404.
 */
export async function revokeApiKey(db: Db, actor: TActor, input: TRevokeApiKey): Promise<TRevokedApiKey> {
  const { id } = input;
  return db.transaction(async (tx) => {
    const inOrg = and(eq(apiKeys.id, id), eq(apiKeys.organisationId, actor.organisation.id));
    const at = now();
    // The condition on revoked_at makes concurrent revocations record exactly one event.
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: at })
      .where(and(inOrg, isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, workspaceId: apiKeys.workspaceId, name: apiKeys.name, prefix: apiKeys.prefix });
    if (!revoked) {
      const [existing] = await tx.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(inOrg);
      if (!existing?.revokedAt) throw errors.notFound("API key");
      return { id, revokedAt: existing.revokedAt, alreadyRevoked: true };
    }
    await auditChange(tx, actor, { id, organisationId: actor.organisation.id, workspaceId: revoked.workspaceId }, "api_key.revoked", {
      name: revoked.name,
      prefix: revoked.prefix,
    });
    return { id, revokedAt: at, alreadyRevoked: false };
  });
}
