import { appRoute } from "@/server/auth/app-route";
import { getEndpointChart } from "@/server/domain/webhooks/health/get-endpoint-chart";
import { appWebhookChart } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks/{endpointId}/chart?range=24h|7d – hourly deliveries by status and response times
export const GET = appRoute(appWebhookChart, ({ db, actor, params, query }) =>
  getEndpointChart(db, actor, { endpointId: params.endpointId, range: query.range }),
);
