import { webhookRoute } from "@/server/auth/webhook-route";
import { replayDeliveries } from "@/server/domain/webhooks-app/replay-deliveries";
import { ZEndpointParams, ZReplayBody } from "@/server/domain/webhooks-app/schemas";

// POST /api/app/webhooks/{endpointId}/deliveries/replay – re-queue one EXHAUSTED delivery, or all in a time range (same ids)
export const POST = webhookRoute({ params: ZEndpointParams, body: ZReplayBody }, ({ db, scope, params, body }) =>
  replayDeliveries(db, scope, { ...body, endpointId: params.endpointId }),
);
