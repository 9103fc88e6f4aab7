import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { encryptSecret } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { assertRegistrableUrl } from "./assert-registrable-url";
import { auditChange } from "@/server/domain/audit/audit-change";
import { EVENT_NAMES, type TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import type { TActor } from "@/server/domain/access/actor";
import { toEndpointView } from "./endpoint-view";
import { generateWebhookSecret } from "./generate-webhook-secret";

export type TCreateEndpointInput = { url: string; events?: TEventName[]; description?: string | null };

/** Registers an endpoint in the caller's workspace. The secret is returned here once and stored encrypted. */
export async function createEndpoint(db: Db, actor: TActor, input: TCreateEndpointInput) {
  const url = await assertRegistrableUrl(input.url);
  const secret = generateWebhookSecret();
  const at = now();
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId("whep"),
        organisationId: actor.organisation.id,
        workspaceId: actor.workspace.id,
        url,
        description: input.description ?? null,
        // Omitted means every event; the order of the catalogue keeps lists stable.
        events: EVENT_NAMES.filter((name) => (input.events ?? EVENT_NAMES).includes(name)),
        enabled: true,
        secretEncrypted: encryptSecret(secret),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await auditChange(tx, actor, inserted!.id, "webhook.endpoint_created", { url: inserted!.url, events: inserted!.events });
    return inserted!;
  });
  return { ...toEndpointView(row), secret };
}
