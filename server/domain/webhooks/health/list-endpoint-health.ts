import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries } from "@/server/db/schema";
import { getEndpointHealth } from "./get-endpoint-health";
import { now } from "@/server/lib/clock";
import { toHealthView } from "./health-view";
import type { TActor } from "@/server/domain/access/actor";
import { isQueued } from "@/server/domain/webhooks/delivery/queued-deliveries";

/** The endpoints dashboard: every endpoint of the current workspace with its figures, Failing ones first. */
export async function listEndpointHealth(db: Db, actor: TActor) {
  const health = await getEndpointHealth(db, actor.workspace.id, now());
  const order = { FAILING: 0, ACTIVE: 1, PAUSED: 2 } as const;
  const endpoints = health.map(toHealthView).sort((a, b) => order[a.state] - order[b.state]);
  const [waiting] = health.length
    ? await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(isQueued(health.map((h) => h.id)), eq(webhookDeliveries.status, "PENDING")))
    : [];
  return { workspace: { id: actor.workspace.id, name: actor.workspace.name }, endpoints, pendingDeliveries: Number(waiting?.n ?? 0) };
}
