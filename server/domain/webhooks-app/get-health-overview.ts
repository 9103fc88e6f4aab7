import type { Db } from "@/server/db/client";
import { getWebhookOverview } from "@/server/domain/webhook-health/get-webhook-overview";
import { now } from "@/server/lib/clock";
import type { TWebhookScope } from "./resolve-webhook-scope";

/** The Overview page's webhook health summary for the current workspace. */
export async function getHealthOverview(db: Db, scope: TWebhookScope) {
  const o = await getWebhookOverview(db, scope.workspace.id, now());
  return {
    workspace: { id: scope.workspace.id, name: scope.workspace.name },
    endpoints: o.endpoints,
    failingEndpoints: o.failingEndpoints,
    deliveries24h: o.deliveries24h,
    oldestWaiting: o.oldestWaiting
      ? { deliveryId: o.oldestWaiting.deliveryId, createdAt: o.oldestWaiting.createdAt.toISOString(), ageSeconds: o.oldestWaiting.ageSeconds }
      : null,
  };
}
