import { appRoute } from "@/server/auth/app-route";
import { replayDeliveries } from "@/server/domain/webhooks/health/replay-deliveries";
import { appReplayDeliveries } from "@/server/domain/webhooks/operations";

// POST /api/app/webhooks/{endpointId}/deliveries/replay – re-queue one EXHAUSTED delivery, or all in a time range (same ids)
export const POST = appRoute(appReplayDeliveries, ({ db, actor, params, body }) => replayDeliveries(db, actor, { ...body, endpointId: params.endpointId }));
