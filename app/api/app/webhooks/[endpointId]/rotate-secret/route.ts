import { appRoute } from "@/server/auth/app-route";
import { rotateEndpointSecret } from "@/server/domain/webhooks/endpoints/rotate-endpoint-secret";
import { appRotateWebhookSecret } from "@/server/domain/webhooks/operations";

// POST /api/app/webhooks/{endpointId}/rotate-secret – new secret (shown once); the old one signs for 24 h more
export const POST = appRoute(appRotateWebhookSecret, ({ db, actor, params }) => rotateEndpointSecret(db, actor, params));
