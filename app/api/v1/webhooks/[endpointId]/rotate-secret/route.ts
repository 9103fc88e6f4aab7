import { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import { apiRoute } from "@/server/http/api-route";
import { rotateWebhookSecret } from "@/server/domain/webhooks/operations";

// POST /api/v1/webhooks/{endpointId}/rotate-secret – new secret; the old one signs beside it for 24 h
export const POST = apiRoute(rotateWebhookSecret, ({ db, actor, params }) => rotateEndpointSecret(db, actor, params));
