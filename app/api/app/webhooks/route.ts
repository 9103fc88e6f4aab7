import { appRoute } from "@/server/auth/app-route";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { listEndpointHealth } from "@/server/domain/webhooks/health/list-endpoint-health";
import { appCreateWebhook, appListWebhooks } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks – the current workspace's endpoints with their 24 h figures (dashboard)
export const GET = appRoute(appListWebhooks, ({ db, actor }) => listEndpointHealth(db, actor));

// POST /api/app/webhooks – register an endpoint (URL vetted as the API does); the secret is in this response only
export const POST = appRoute(appCreateWebhook, ({ db, actor, body }) => createEndpoint(db, actor, body));
