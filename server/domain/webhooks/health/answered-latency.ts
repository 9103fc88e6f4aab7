import { sql } from "drizzle-orm";
import { webhookAttempts } from "@/server/db/schema";

/**
 * The p-th percentile (0.5, 0.95) of attempt durations, counting only attempts the receiver answered (a
 * timeout or a refused connection has no status and would skew it): one definition for the health card and the
 * endpoint's timeline. Use in a select over webhook_attempts.
 */
export function answeredLatency(p: 0.5 | 0.95) {
  return sql<
    number | null
  >`percentile_cont(${sql.raw(String(p))}) within group (order by ${webhookAttempts.durationMs}) filter (where ${webhookAttempts.responseStatus} is not null)`;
}
