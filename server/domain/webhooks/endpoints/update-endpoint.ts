/**
 * PATCH an endpoint. `enabled: false` pauses it: in the same transaction every queued delivery that no
 * worker holds ends EXHAUSTED "endpoint paused" (drop-paused-deliveries.ts); one a worker has claimed but not yet sent is dropped by that
 * worker's check just before sending (confirm-claims.ts); a request already on the wire finishes, and if it
 * fails its worker sees the pause and drops it instead of retrying. `enabled: true` resumes AND clears the failure counter and
 * the Failing mark — also on an endpoint that was never paused, which is how a Failing endpoint is re-enabled.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEndpoints } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { assertRegistrableUrl } from "./assert-registrable-url";
import { auditChange } from "@/server/domain/audit/audit-change";
import { dropQueuedDeliveries } from "@/server/domain/webhooks/delivery/drop-paused-deliveries";
import { EVENT_NAMES, type TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import type { TActor } from "@/server/domain/access/actor";
import { toEndpointView } from "./endpoint-view";
import { findEndpoint } from "./find-endpoint";
import { CLEARED_HEALTH } from "@/server/domain/webhooks/health/failing";
import type { TEndpointRef } from "@/server/domain/webhooks/schemas";

/** The operation's params and body merged, as the route parsed them. */
export type TUpdateEndpointInput = TEndpointRef & {
  url?: string;
  events?: TEventName[];
  description?: string | null;
  enabled?: boolean;
};

export async function updateEndpoint(db: Db, actor: TActor, input: TUpdateEndpointInput) {
  const { endpointId, ...changes } = input;
  // Tenancy first: another workspace's endpoint is 404 whatever the body says — never a 422 on `url`, and no
  // DNS lookup made on its behalf. The URL is vetted outside the transaction (DNS can be slow; no row lock is
  // held meanwhile), and the endpoint is found again, locked, inside it.
  await findEndpoint(db, actor, endpointId);
  const url = changes.url === undefined ? undefined : await assertRegistrableUrl(changes.url);
  return db.transaction(async (tx) => {
    await findEndpoint(tx, actor, endpointId, { forUpdate: true });
    const at = now();
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        updatedAt: at,
        ...(url === undefined ? {} : { url }),
        ...(changes.events === undefined ? {} : { events: EVENT_NAMES.filter((n) => changes.events!.includes(n)) }),
        ...(changes.description === undefined ? {} : { description: changes.description }),
        ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
        ...(changes.enabled === true ? CLEARED_HEALTH : {}),
      })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning();
    if (changes.enabled === false) await dropQueuedDeliveries(tx, sql`e.id = ${endpointId}`, at);
    const changed = Object.fromEntries(Object.entries({ ...changes, ...(url === undefined ? {} : { url }) }).filter(([, v]) => v !== undefined));
    await auditChange(tx, actor, endpointId, "webhook.endpoint_updated", changed);
    return toEndpointView(row!);
  });
}
