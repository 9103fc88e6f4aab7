import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/server/db/schema";
import { errors } from "@/server/lib/errors";
import type { TActor } from "@/server/domain/access/actor";

/**
 * One delivery of one endpoint of the current workspace, with its event and endpoint rows, or 404 — a
 * delivery of another workspace (or of another endpoint than the one named) does not exist for the caller.
 */
export async function findDelivery(db: Db, actor: TActor, input: { endpointId: string; deliveryId: string }) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.id, input.deliveryId),
        eq(webhookDeliveries.endpointId, input.endpointId),
        eq(webhookEndpoints.workspaceId, actor.workspace.id),
        eq(webhookEndpoints.organisationId, actor.organisation.id),
      ),
    );
  if (!row) throw errors.notFound("Webhook delivery");
  return row;
}
