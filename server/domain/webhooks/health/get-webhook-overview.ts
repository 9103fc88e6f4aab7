/**
 * The overview page's health summary for one workspace: endpoints by state, deliveries created in the
 * last 24 hours by status, and the age of the oldest delivery still waiting (PENDING, or FAILED with a
 * retry scheduled) — so a Failing endpoint or a stuck queue shows at first glance.
 */
import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { DELIVERY_STATUSES, type TDeliveryStatus, webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { isQueued } from "@/server/domain/webhooks/delivery/queued-deliveries";
import { endpointState, type TEndpointState } from "./failing";
import { now } from "@/server/lib/clock";
import type { ZHealthOverview } from "../schemas";
import type { z } from "zod";

export async function getWebhookOverview(db: Db, actor: Pick<TActor, "workspace">, at = now()): Promise<z.input<typeof ZHealthOverview>> {
  const workspaceId = actor.workspace.id;
  const endpoints = await db
    .select({
      id: webhookEndpoints.id,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      consecutiveFailures: webhookEndpoints.consecutiveFailures,
      failingSince: webhookEndpoints.failingSince,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, workspaceId));
  const byState: Record<TEndpointState, number> = { ACTIVE: 0, PAUSED: 0, FAILING: 0 };
  for (const e of endpoints) byState[endpointState(e)] += 1;
  const failingEndpoints = endpoints
    .filter((e) => endpointState(e) === "FAILING")
    .map(({ id, url, consecutiveFailures }) => ({ id, url, consecutiveFailures }));

  const deliveries24h = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<TDeliveryStatus, number>;
  const ids = endpoints.map((e) => e.id);
  let oldestWaiting: { deliveryId: string; createdAt: string; ageSeconds: number } | null = null;
  if (ids.length) {
    const since = new Date(at.getTime() - 24 * 3_600_000);
    const counts = await db
      .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.endpointId, ids), gte(webhookDeliveries.createdAt, since)))
      .groupBy(webhookDeliveries.status);
    for (const c of counts) deliveries24h[c.status] = Number(c.n);
    const [oldest] = await db
      .select({ id: webhookDeliveries.id, createdAt: webhookDeliveries.createdAt })
      .from(webhookDeliveries)
      .where(and(isQueued(ids), inArray(webhookDeliveries.status, ["PENDING", "FAILED"])))
      .orderBy(webhookDeliveries.createdAt)
      .limit(1);
    if (oldest) {
      oldestWaiting = {
        deliveryId: oldest.id,
        createdAt: oldest.createdAt.toISOString(),
        ageSeconds: Math.max(0, Math.floor((at.getTime() - oldest.createdAt.getTime()) / 1000)),
      };
    }
  }
  return {
    workspace: { id: actor.workspace.id, name: actor.workspace.name },
    endpoints: byState,
    failingEndpoints,
    deliveries24h,
    oldestWaiting,
  };
}
