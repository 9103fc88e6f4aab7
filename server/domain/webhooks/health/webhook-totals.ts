/**
 * The webhook figures /api/metrics reads from the tallies that triggers keep (migrations 0034 and 0035, schema
 * webhookTallies): the stored deliveries DELIVERED and EXHAUSTED, the counters of deliveries that ended so, and the
 * attempt-duration histogram — instance-wide and cumulative: every attempt with a duration ever logged, counted as it
 * is inserted into webhook_attempts, so removing attempts (retention, an endpoint deleted) takes nothing from it
 * (Prometheus reads a histogram as counters: no series may go down). A scrape sums a few rows, not the history.
 */
import { sql, type SQLWrapper } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookTallies } from "@/server/db/schema";
import { queryRows } from "@/server/db/client";

/** The bucket bounds (seconds), each with the tally column that counts the attempts at or under it. */
export const DURATION_BUCKETS = [
  { seconds: 0.05, column: webhookTallies.le50ms },
  { seconds: 0.1, column: webhookTallies.le100ms },
  { seconds: 0.25, column: webhookTallies.le250ms },
  { seconds: 0.5, column: webhookTallies.le500ms },
  { seconds: 1, column: webhookTallies.le1s },
  { seconds: 2.5, column: webhookTallies.le2500ms },
  { seconds: 5, column: webhookTallies.le5s },
  { seconds: 10, column: webhookTallies.le10s },
] as const;

export type TWebhookTotals = {
  /** Stored deliveries DELIVERED and EXHAUSTED. */
  delivered: number;
  exhausted: number;
  /** Deliveries that reached DELIVERED or EXHAUSTED, ever (counters: removals take nothing from them). */
  deliveredTotal: number;
  exhaustedTotal: number;
  /** Attempts with a duration ever logged (the histogram's count), per bucket (cumulative), and their sum. */
  attempts: number;
  buckets: number[];
  durationMs: number;
};

/** The tallies' sum (every row, folded or not: exact in the statement's snapshot). */
export async function readWebhookTotals(db: Db): Promise<TWebhookTotals> {
  const t = webhookTallies;
  const total = (column: SQLWrapper) => sql`coalesce(sum(${column}), 0)::text`;
  const [row] = await queryRows<Record<string, string>>(
    db,
    sql`select ${total(t.delivered)} as delivered, ${total(t.exhausted)} as exhausted,
      ${total(t.deliveredTotal)} as delivered_total, ${total(t.exhaustedTotal)} as exhausted_total, ${total(t.attempts)} as attempts,
      ${sql.join(
        DURATION_BUCKETS.map((b, i) => sql`${total(b.column)} as ${sql.identifier(`b${i}`)}`),
        sql`, `,
      )}, ${total(t.durationMs)} as duration_ms
    from ${t}`,
  );
  return {
    delivered: Number(row?.delivered ?? 0),
    exhausted: Number(row?.exhausted ?? 0),
    deliveredTotal: Number(row?.delivered_total ?? 0),
    exhaustedTotal: Number(row?.exhausted_total ?? 0),
    attempts: Number(row?.attempts ?? 0),
    buckets: DURATION_BUCKETS.map((_, i) => Number(row?.[`b${i}`] ?? 0)),
    durationMs: Number(row?.duration_ms ?? 0),
  };
}
