import { webhookRoute } from "@/server/auth/webhook-route";
import { checkDeliverySignature } from "@/server/domain/webhooks-app/check-delivery-signature";
import { ZDeliveryParams, ZSignatureBody } from "@/server/domain/webhooks-app/schemas";

// POST /api/app/webhooks/{endpointId}/deliveries/{deliveryId}/check-signature – does the receiver's digest match?
export const POST = webhookRoute({ params: ZDeliveryParams, body: ZSignatureBody }, ({ db, scope, params, body }) =>
  checkDeliverySignature(db, scope, { ...params, ...body }),
);
