import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { assertOwner } from "@/server/domain/organisation/assert-owner";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";

export const ZRevokeApiKey = z.object({ id: z.string().min(1) });
export type TRevokeApiKey = z.input<typeof ZRevokeApiKey>;

export type TRevokedApiKey = { id: string; revokedAt: Date; alreadyRevoked: boolean };

/**
 * Revokes a key at once and for good: the very next request with it is 401. Revoking an already revoked key
 * is a no-op that reports the original revocation (`alreadyRevoked: true`) and records no second audit event,
 * so a double click or a retried request is harmless. A key of another organisation is 404.
 */
export async function revokeApiKey(db: Db, actor: TSessionActor, input: TRevokeApiKey): Promise<TRevokedApiKey> {
  assertOwner(actor);
  const { id } = parseOrThrow(ZRevokeApiKey, input, "input");
  return db.transaction(async (tx) => {
    const inOrg = and(eq(apiKeys.id, id), eq(apiKeys.organisationId, actor.organisationId));
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
    await recordAudit(tx, {
      organisationId: actor.organisationId,
      workspaceId: revoked.workspaceId,
      subjectType: "api_key",
      subjectId: id,
      action: "api_key.revoked",
      actorUserId: actor.userId,
      data: { name: revoked.name, prefix: revoked.prefix },
    });
    return { id, revokedAt: at, alreadyRevoked: false };
  });
}
