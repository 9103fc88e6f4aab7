import { webhookRoute } from "@/server/auth/webhook-route";
import { getDeliveryDetail } from "@/server/domain/webhooks-app/get-delivery-detail";
import { ZDeliveryParams } from "@/server/domain/webhooks-app/schemas";

// GET /api/app/webhooks/{endpointId}/deliveries/{deliveryId} – the request as sent and every attempt
export const GET = webhookRoute({ params: ZDeliveryParams }, ({ db, scope, params }) => getDeliveryDetail(db, scope, params));
