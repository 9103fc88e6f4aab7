import { webhookRoute } from "@/server/auth/webhook-route";
import { getEndpointChart } from "@/server/domain/webhooks-app/get-endpoint-chart";
import { ZChartQuery, ZEndpointParams } from "@/server/domain/webhooks-app/schemas";

// GET /api/app/webhooks/{endpointId}/chart?range=24h|7d – hourly deliveries by status and response times
export const GET = webhookRoute({ params: ZEndpointParams, query: ZChartQuery }, ({ db, scope, params, query }) =>
  getEndpointChart(db, scope, { endpointId: params.endpointId, range: query.range }),
);
