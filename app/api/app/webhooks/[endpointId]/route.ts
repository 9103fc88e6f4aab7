import { appRoute } from "@/server/auth/app-route";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { getEndpointSummary } from "@/server/domain/webhooks/health/get-endpoint-summary";
import { appDeleteWebhook, appGetWebhook, appUpdateWebhook } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks/{endpointId} – settings, state, 24 h figures, previous-secret overlap
export const GET = appRoute(appGetWebhook, ({ db, actor, params }) => getEndpointSummary(db, actor, params));

// PATCH /api/app/webhooks/{endpointId} – edit settings; enabled false pauses, true resumes and clears the counter
export const PATCH = appRoute(appUpdateWebhook, ({ db, actor, params, body }) => updateEndpoint(db, actor, { ...params, ...body }));

// DELETE /api/app/webhooks/{endpointId} – delete the endpoint and its log
export const DELETE = appRoute(appDeleteWebhook, ({ db, actor, params }) => deleteEndpoint(db, actor, params));
