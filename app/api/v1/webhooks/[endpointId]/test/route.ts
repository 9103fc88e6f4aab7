import { sendTestEvent } from "@/server/domain/webhooks/events/send-test-event";
import { sendWebhookTestEvent } from "@/server/domain/webhooks/operations";
import { apiRoute } from "@/server/http/api-route";

// POST /api/v1/webhooks/{endpointId}/test – a signed sample (test: true) of a chosen event to this endpoint
export const POST = apiRoute(sendWebhookTestEvent, ({ db, actor, params, body }) =>
  sendTestEvent(db, actor, { endpointId: params.endpointId, event: body.event }),
);
