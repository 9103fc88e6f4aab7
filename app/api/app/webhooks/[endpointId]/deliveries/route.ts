import { webhookRoute } from "@/server/auth/webhook-route";
import { getDeliveryLog } from "@/server/domain/webhooks-app/get-delivery-log";
import { ZDeliveryLogQuery, ZEndpointParams } from "@/server/domain/webhooks-app/schemas";

// GET /api/app/webhooks/{endpointId}/deliveries – the delivery log, newest first, by status and event
export const GET = webhookRoute({ params: ZEndpointParams, query: ZDeliveryLogQuery }, ({ db, scope, params, query }) =>
  getDeliveryLog(db, scope, { ...query, endpointId: params.endpointId }),
);
