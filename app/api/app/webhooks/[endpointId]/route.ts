import { webhookRoute } from "@/server/auth/webhook-route";
import { getEndpointSummary } from "@/server/domain/webhooks-app/get-endpoint-summary";
import { ZEndpointParams, ZUpdateEndpointBody } from "@/server/domain/webhooks-app/schemas";
import { deleteEndpoint } from "@/server/domain/webhooks/delete-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/update-endpoint";

// GET /api/app/webhooks/{endpointId} – settings, state, 24 h figures, previous-secret overlap
export const GET = webhookRoute({ params: ZEndpointParams }, ({ db, scope, params }) => getEndpointSummary(db, scope, params));

// PATCH /api/app/webhooks/{endpointId} – edit settings; enabled false pauses, true resumes and clears the counter
export const PATCH = webhookRoute({ params: ZEndpointParams, body: ZUpdateEndpointBody }, ({ db, scope, params, body }) =>
  updateEndpoint(db, scope, params.endpointId, body),
);

// DELETE /api/app/webhooks/{endpointId} – delete the endpoint and its log
export const DELETE = webhookRoute({ params: ZEndpointParams }, ({ db, scope, params }) => deleteEndpoint(db, scope, params.endpointId));
