import { appRoute } from "@/server/auth/app-route";
import { getDeliveryDetail } from "@/server/domain/webhooks/health/get-delivery-detail";
import { appDeliveryDetail } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks/{endpointId}/deliveries/{deliveryId} – the request as sent and every attempt
export const GET = appRoute(appDeliveryDetail, ({ db, actor, params }) => getDeliveryDetail(db, actor, params));
