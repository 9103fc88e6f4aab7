import { webhookRoute } from "@/server/auth/webhook-route";
import { sendTestEvent } from "@/server/domain/webhooks-app/send-test-event";
import { ZEndpointParams, ZTestEventBody } from "@/server/domain/webhooks-app/schemas";

// POST /api/app/webhooks/{endpointId}/test-events – a sample (test: true) through the real pipeline to this endpoint only
export const POST = webhookRoute({ params: ZEndpointParams, body: ZTestEventBody, successStatus: 201 }, ({ db, scope, params, body }) =>
  sendTestEvent(db, scope, { endpointId: params.endpointId, event: body.event }),
);
