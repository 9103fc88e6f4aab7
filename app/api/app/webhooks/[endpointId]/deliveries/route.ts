import { appRoute } from "@/server/auth/app-route";
import { getDeliveryLog } from "@/server/domain/webhooks/health/get-delivery-log";
import { appDeliveryLog } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks/{endpointId}/deliveries – the delivery log, newest first, by status and event
export const GET = appRoute(appDeliveryLog, ({ db, actor, params, query }) => getDeliveryLog(db, actor, { ...query, endpointId: params.endpointId }));
