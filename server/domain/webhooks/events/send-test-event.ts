import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookEvents } from "@/server/db/schema";
import type { TEnvelope, TEventName } from "./event-catalogue";
import { findEndpoint } from "@/server/domain/webhooks/endpoints/find-endpoint";
import { recordEvent } from "./record-event";
import { withEvents } from "@/server/domain/transaction";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { sampleEventData } from "./sample-event-data";
import type { TActor } from "@/server/domain/access/actor";

/**
 * "Send test event": a realistic sample of the chosen event, `test: true` in the envelope, recorded through
 * the real outbox to THIS endpoint only (whatever it subscribes to, and also while Failing — proving a
 * receiver works is how one recovers), then signed, sent, retried and logged by the worker like any delivery.
 * A paused endpoint refuses: its queued deliveries are dropped, so the test could only end EXHAUSTED.
 * The answer carries the exact envelope that will be signed, so an integrator can compare it with what arrives.
 */
export async function sendTestEvent(db: Db, actor: TActor, input: { endpointId: string; event: TEventName }) {
  const endpoint = await findEndpoint(db, actor, input.endpointId);
  if (!endpoint.enabled) throw errors.conflict("This endpoint is paused. Resume it to send a test event.");
  const { recorded, payload } = await withEvents(db, async (tx) => {
    const recorded = await recordEvent(tx, {
      organisationId: actor.organisation.id,
      workspaceId: actor.workspace.id,
      event: input.event,
      data: sampleEventData(input.event, now(), actor.user.email),
      test: { endpointId: endpoint.id },
    });
    const [row] = await tx
      .select({ payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.id, recorded.eventId), eq(webhookEvents.workspaceId, actor.workspace.id)));
    // The stored payload is the envelope recordEvent built (and signs from its body).
    return { recorded, payload: row?.payload as TEnvelope };
  });
  const deliveryId = recorded.deliveryIds[0];
  if (!deliveryId) throw errors.notFound("Webhook endpoint");
  return { eventId: recorded.eventId, deliveryId, event: input.event, payload };
}
