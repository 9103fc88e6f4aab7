import { deleteEndpoint } from "@/server/domain/webhooks/delete-endpoint";
import { getEndpoint } from "@/server/domain/webhooks/get-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/update-endpoint";
import { apiRoute } from "@/server/http/api-route";
import { deleteWebhook, getWebhook, updateWebhook } from "@/server/http/operations/webhooks";

// GET /api/v1/webhooks/{endpointId} – the endpoint with its paged delivery log
export const GET = apiRoute(getWebhook, ({ db, ctx, params, query }) => getEndpoint(db, ctx, params.endpointId, query));

// PATCH /api/v1/webhooks/{endpointId} – change, pause or resume an endpoint
export const PATCH = apiRoute(updateWebhook, ({ db, ctx, params, body }) => updateEndpoint(db, ctx, params.endpointId, body));

// DELETE /api/v1/webhooks/{endpointId} – delete an endpoint
export const DELETE = apiRoute(deleteWebhook, ({ db, ctx, params }) => deleteEndpoint(db, ctx, params.endpointId));
