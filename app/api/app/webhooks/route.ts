import { webhookRoute } from "@/server/auth/webhook-route";
import { listEndpointHealth } from "@/server/domain/webhooks-app/list-endpoint-health";
import { ZCreateEndpointBody } from "@/server/domain/webhooks-app/schemas";
import { createEndpoint } from "@/server/domain/webhooks/create-endpoint";

// GET /api/app/webhooks – the current workspace's endpoints with their 24 h figures (dashboard)
export const GET = webhookRoute({}, ({ db, scope }) => listEndpointHealth(db, scope));

// POST /api/app/webhooks – register an endpoint (URL vetted as the API does); the secret is in this response only
export const POST = webhookRoute({ body: ZCreateEndpointBody, successStatus: 201 }, ({ db, scope, body }) => createEndpoint(db, scope, body));
