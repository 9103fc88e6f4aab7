import { sql, type SQL } from "drizzle-orm";
import { idArray } from "@/server/lib/ids";

/**
 * The ids of the queued deliveries (PENDING, or FAILED with a retry to come) of the endpoints `endpointIds` names,
 * as a subquery, read from the queue: webhook_queue holds exactly one row per queued delivery (written with it by
 * the fan-out and a replay, deleted at its final outcome), so the pages' "still waiting" figures read the backlog
 * through the queue's two due indexes by endpoint (first attempts, retries) instead of every retained delivery of
 * the endpoint (bench:dashboards). The delivery's status and age are its record's: join on the id.
 */
export function queuedDeliveryIds(endpointIds: readonly string[]): SQL {
  const ids = sql`${idArray(endpointIds)}::text[]`;
  return sql`select q.delivery_id from webhook_queue q where q.attempts = 0 and q.endpoint_id = any(${ids})
    union all select q.delivery_id from webhook_queue q where q.attempts > 0 and q.endpoint_id = any(${ids})`;
}
