import { rotateEndpointSecret } from "@/server/domain/webhooks/rotate-endpoint-secret";
import { apiRoute } from "@/server/http/api-route";
import { rotateWebhookSecret } from "@/server/http/operations/webhooks";

// POST /api/v1/webhooks/{endpointId}/rotate-secret – new secret; the old one signs beside it for 24 h
export const POST = apiRoute(rotateWebhookSecret, ({ db, ctx, params }) => rotateEndpointSecret(db, ctx, params.endpointId));
