import { webhookRoute } from "@/server/auth/webhook-route";
import { ZEndpointParams } from "@/server/domain/webhooks-app/schemas";
import { rotateEndpointSecret } from "@/server/domain/webhooks/rotate-endpoint-secret";

// POST /api/app/webhooks/{endpointId}/rotate-secret – new secret (shown once); the old one signs for 24 h more
export const POST = webhookRoute({ params: ZEndpointParams }, ({ db, scope, params }) => rotateEndpointSecret(db, scope, params.endpointId));
