import type { Db } from "@/server/db/client";
import type { TEventName } from "@/server/domain/webhooks/event-catalogue";
import { findEndpoint } from "@/server/domain/webhooks/find-endpoint";
import { recordEvent } from "@/server/domain/webhooks/record-event";
import { withEvents } from "@/server/domain/webhooks/with-events";
import { errors } from "@/server/http/errors";
import { now } from "@/server/lib/clock";
import { sampleEventData } from "./sample-event-data";
import type { TWebhookScope } from "./resolve-webhook-scope";

/**
 * "Send test event": a realistic sample of the chosen event, `test: true` in the envelope, recorded through
 * the real outbox to THIS endpoint only (whatever it subscribes to, and also while Failing — proving a
 * receiver works is how one recovers), then signed, sent, retried and logged by the worker like any delivery.
 * A paused endpoint refuses: its queued deliveries are dropped, so the test could only end EXHAUSTED.
 */
export async function sendTestEvent(db: Db, scope: TWebhookScope, input: { endpointId: string; event: TEventName }) {
  const endpoint = await findEndpoint(db, scope, input.endpointId);
  if (!endpoint.enabled) throw errors.conflict("This endpoint is paused. Resume it to send a test event.");
  const recorded = await withEvents(db, (tx) =>
    recordEvent(tx, {
      organisationId: scope.organisation.id,
      workspaceId: scope.workspace.id,
      event: input.event,
      data: sampleEventData(input.event, now(), scope.actor.email),
      test: { endpointId: endpoint.id },
    }),
  );
  const deliveryId = recorded.deliveryIds[0];
  if (!deliveryId) throw errors.notFound("Webhook endpoint");
  return { eventId: recorded.eventId, deliveryId, event: input.event };
}
