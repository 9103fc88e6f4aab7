import { createEndpoint } from "@/server/domain/webhooks/create-endpoint";
import { listEndpoints } from "@/server/domain/webhooks/list-endpoints";
import { apiRoute } from "@/server/http/api-route";
import { createWebhook, listWebhooks } from "@/server/http/operations/webhooks";

// GET /api/v1/webhooks – the workspace's endpoints, paged
export const GET = apiRoute(listWebhooks, ({ db, ctx, query }) => listEndpoints(db, ctx, query));

// POST /api/v1/webhooks – register an endpoint (the secret is returned once)
export const POST = apiRoute(createWebhook, ({ db, ctx, body }) => createEndpoint(db, ctx, body));
