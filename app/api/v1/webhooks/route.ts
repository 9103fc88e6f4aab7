import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { listEndpoints } from "@/server/domain/webhooks/endpoints/list-endpoints";
import { apiRoute } from "@/server/http/api-route";
import { createWebhook, listWebhooks } from "@/server/domain/webhooks/operations";

// GET /api/v1/webhooks – the workspace's endpoints, paged
export const GET = apiRoute(listWebhooks, ({ db, actor, query }) => listEndpoints(db, actor, query));

// POST /api/v1/webhooks – register an endpoint (the secret is returned once)
export const POST = apiRoute(createWebhook, ({ db, actor, body }) => createEndpoint(db, actor, body));
