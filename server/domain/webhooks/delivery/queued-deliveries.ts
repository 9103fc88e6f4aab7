import { and, eq, sql, type SQL } from "drizzle-orm";
import { webhookDeliveries, type TDeliveryStatus } from "@/server/db/schema";
import { idArray } from "@/server/lib/ids";

/**
 * The queued deliveries (PENDING, or FAILED with a retry to come) of the endpoints `endpointIds` names, as a
 * condition on webhook_deliveries, read from the queue: webhook_queue holds exactly one row per queued delivery
 * (written with it by the fan-out and a replay, deleted at its final outcome), so the pages' "still waiting" figures
 * read the backlog through the queue's two due indexes by endpoint (first attempts, retries) instead of every
 * retained delivery of the endpoint (bench:dashboards). The delivery's status and age are its record's.
 */
export function isQueued(endpointIds: readonly string[]): SQL {
  const ids = sql`${idArray(endpointIds)}::text[]`;
  return sql`${webhookDeliveries.id} in (select q.delivery_id from webhook_queue q where q.attempts = 0 and q.endpoint_id = any(${ids})
    union all select q.delivery_id from webhook_queue q where q.attempts > 0 and q.endpoint_id = any(${ids}))`;
}

/**
 * An endpoint's deliveries, optionally of one status, as a condition on webhook_deliveries. The waiting statuses
 * (PENDING, FAILED) are found through the queue, so a log filtered to them reads the backlog, not the history;
 * the finished ones (DELIVERED, EXHAUSTED) through the endpoint's index, reading its retained deliveries.
 */
export function endpointDeliveries(endpointId: string, status?: TDeliveryStatus): SQL {
  const d = webhookDeliveries;
  if (status === "PENDING" || status === "FAILED") return and(isQueued([endpointId]), eq(d.status, status))!;
  return and(eq(d.endpointId, endpointId), status ? eq(d.status, status) : undefined)!;
}
