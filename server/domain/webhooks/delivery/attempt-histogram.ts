/**
 * The attempt-duration histogram for /api/metrics, instance-wide and cumulative: the attempts still stored
 * plus those already removed (folded into webhook_attempt_histogram_base, in the removing transaction, by
 * retention and endpoint deletion). Prometheus reads a histogram as counters, so no series may go down.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookAttemptHistogramBase } from "@/server/db/schema";

export const DURATION_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Series name → value: each bucket bound ("0.05" … "10"), "+Inf" (the count) and "sum_ms". */
export type THistogramSeries = Record<string, number>;

const BOUNDS = DURATION_BUCKETS_SECONDS.map(String);

/** The series over the stored attempts `where` selects (alias `a` is webhook_attempts). */
async function seriesOf(db: Db, where: SQL): Promise<THistogramSeries> {
  const columns = DURATION_BUCKETS_SECONDS.map((b, i) => sql`count(*) filter (where a.duration_ms <= ${b * 1000})::bigint as ${sql.identifier(`b${i}`)}`);
  const result = await db.execute(sql`
    select ${sql.join(columns, sql`, `)}, count(*)::bigint as n, coalesce(sum(a.duration_ms), 0)::bigint as sum_ms
    from webhook_attempts a where a.duration_ms is not null and (${where})`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string | number | bigint>[];
  const row = rows[0] ?? {};
  const series: THistogramSeries = {};
  BOUNDS.forEach((bound, i) => (series[bound] = Number(row[`b${i}`] ?? 0)));
  series["+Inf"] = Number(row.n ?? 0);
  series.sum_ms = Number(row.sum_ms ?? 0);
  return series;
}

/**
 * Adds the attempts of the deliveries that `deliveryIds` (a subquery of ids) selects to the base. Call it in
 * the transaction that deletes exactly those deliveries, before deleting them.
 */
export async function foldAttemptsIntoHistogram(tx: Db, deliveryIds: SQL): Promise<void> {
  const series = await seriesOf(tx, sql`a.delivery_id in (${deliveryIds})`);
  if (series["+Inf"] === 0) return;
  await tx
    .insert(webhookAttemptHistogramBase)
    .values(Object.entries(series).map(([name, value]) => ({ series: name, value })))
    .onConflictDoUpdate({
      target: webhookAttemptHistogramBase.series,
      set: { value: sql`${webhookAttemptHistogramBase.value} + excluded.value` },
    });
}

/** Stored attempts plus the folded base: every series only grows. */
export async function readAttemptHistogram(db: Db): Promise<THistogramSeries> {
  const stored = await seriesOf(db, sql`true`);
  for (const row of await db.select().from(webhookAttemptHistogramBase)) {
    stored[row.series] = (stored[row.series] ?? 0) + Number(row.value);
  }
  return stored;
}
