import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { getEndpoint } from "@/server/domain/webhooks/endpoints/get-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { apiRoute } from "@/server/http/api-route";
import { deleteWebhook, getWebhook, updateWebhook } from "@/server/domain/webhooks/operations";

// GET /api/v1/webhooks/{endpointId} – the endpoint with its paged delivery log
export const GET = apiRoute(getWebhook, ({ db, actor, params, query }) => getEndpoint(db, actor, { ...params, ...query }));

// PATCH /api/v1/webhooks/{endpointId} – change, pause or resume an endpoint
export const PATCH = apiRoute(updateWebhook, ({ db, actor, params, body }) => updateEndpoint(db, actor, { ...params, ...body }));

// DELETE /api/v1/webhooks/{endpointId} – delete an endpoint
export const DELETE = apiRoute(deleteWebhook, ({ db, actor, params }) => deleteEndpoint(db, actor, params));
