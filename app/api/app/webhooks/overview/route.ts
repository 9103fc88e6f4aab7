import { appRoute } from "@/server/auth/app-route";
import { getWebhookOverview } from "@/server/domain/webhooks/health/get-webhook-overview";
import { appWebhookOverview } from "@/server/domain/webhooks/operations";

// GET /api/app/webhooks/overview – endpoints by state, deliveries by status (24 h), oldest waiting delivery
export const GET = appRoute(appWebhookOverview, ({ db, actor }) => getWebhookOverview(db, actor));
