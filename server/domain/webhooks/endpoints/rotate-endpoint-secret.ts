import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { encryptSecret } from "@/server/lib/crypto";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TActor } from "@/server/domain/access/actor";
import type { TEndpointRef } from "@/server/domain/webhooks/schemas";
import { toEndpointView } from "./endpoint-view";
import { findEndpoint } from "./find-endpoint";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { generateWebhookSecret } from "./generate-webhook-secret";

/**
 * A new secret, returned once. The current one becomes the previous and keeps signing beside it (a second
 * `v1=` entry) for 24 hours, so receivers can switch without losing a delivery. Rotating again within the
 * overlap retires the older previous secret at once: at most two secrets sign.
 */
export async function rotateEndpointSecret(db: Db, actor: TActor, input: TEndpointRef) {
  const { endpointId } = input;
  return db.transaction(async (tx) => {
    const current = await findEndpoint(tx, actor, endpointId, { forUpdate: true });
    const secret = generateWebhookSecret();
    const at = now();
    const previousSecretExpiresAt = new Date(at.getTime() + WEBHOOK_LIMITS.rotationOverlapMs);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secretEncrypted: encryptSecret(secret),
        previousSecretEncrypted: current.secretEncrypted,
        previousSecretExpiresAt,
        updatedAt: at,
      })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning();
    await auditChange(tx, actor, endpointId, "webhook.secret_rotated", { previousSecretExpiresAt: previousSecretExpiresAt.toISOString() });
    return { ...toEndpointView(row!), secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  });
}
