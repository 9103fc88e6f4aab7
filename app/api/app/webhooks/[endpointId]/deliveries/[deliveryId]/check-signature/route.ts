import { appRoute } from "@/server/auth/app-route";
import { checkDeliverySignature } from "@/server/domain/webhooks/health/check-delivery-signature";
import { appCheckDeliverySignature } from "@/server/domain/webhooks/operations";

// POST /api/app/webhooks/{endpointId}/deliveries/{deliveryId}/check-signature – does the receiver's digest match?
export const POST = appRoute(appCheckDeliverySignature, ({ db, actor, params, body }) => checkDeliverySignature(db, actor, { ...params, ...body }));
