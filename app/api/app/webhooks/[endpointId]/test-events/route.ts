import { appRoute } from "@/server/auth/app-route";
import { sendTestEvent } from "@/server/domain/webhooks/events/send-test-event";
import { appSendTestEvent } from "@/server/domain/webhooks/operations";

// POST /api/app/webhooks/{endpointId}/test-events – a sample (test: true) through the real pipeline to this endpoint only
export const POST = appRoute(appSendTestEvent, ({ db, actor, params, body }) => sendTestEvent(db, actor, { endpointId: params.endpointId, event: body.event }));
