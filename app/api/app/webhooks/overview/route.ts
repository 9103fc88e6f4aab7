import { webhookRoute } from "@/server/auth/webhook-route";
import { getHealthOverview } from "@/server/domain/webhooks-app/get-health-overview";

// GET /api/app/webhooks/overview – endpoints by state, deliveries by status (24 h), oldest waiting delivery
export const GET = webhookRoute({}, ({ db, scope }) => getHealthOverview(db, scope));
