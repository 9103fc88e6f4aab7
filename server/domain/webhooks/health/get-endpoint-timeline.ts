/**
 * The endpoint page's health chart: per hour over the last 24 hours or 7 days, the deliveries created in
 * that hour by their current status, and the response time (median and p95) of the attempts made in it.
 * Every hour of the range is present, empty ones with zeros, so a chart needs no gap handling.
 */
import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { DELIVERY_STATUSES, type TDeliveryStatus, webhookAttempts, webhookDeliveries } from "@/server/db/schema";
import { answeredLatency } from "./answered-latency";

export type TTimelineRange = "24h" | "7d";
export type TTimelineBucket = {
  hour: string;
  deliveries: Record<TDeliveryStatus, number>;
  attempts: number;
  p50Ms: number | null;
  p95Ms: number | null;
};

const HOUR_MS = 3_600_000;

function emptyCounts(): Record<TDeliveryStatus, number> {
  return Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0])) as Record<TDeliveryStatus, number>;
}

export async function getEndpointTimeline(db: Db, endpointId: string, range: TTimelineRange, at: Date): Promise<TTimelineBucket[]> {
  const hours = range === "24h" ? 24 : 24 * 7;
  const firstHour = Math.floor(at.getTime() / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
  const since = new Date(firstHour);
  const hourOf = (col: typeof webhookDeliveries.createdAt | typeof webhookAttempts.startedAt) => sql<string>`floor(extract(epoch from ${col}) / 3600)::bigint`;

  const deliveries = await db
    .select({ h: hourOf(webhookDeliveries.createdAt), status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), gte(webhookDeliveries.createdAt, since)))
    .groupBy(sql`1`, webhookDeliveries.status);

  const attempts = await db
    .select({
      h: hourOf(webhookAttempts.startedAt),
      n: sql<number>`count(*)::int`,
      p50: answeredLatency(0.5),
      p95: answeredLatency(0.95),
    })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpointId), gte(webhookAttempts.startedAt, since)))
    .groupBy(sql`1`);

  const buckets = new Map<number, TTimelineBucket>();
  for (let i = 0; i < hours; i++) {
    const t = firstHour + i * HOUR_MS;
    buckets.set(t / HOUR_MS, { hour: new Date(t).toISOString(), deliveries: emptyCounts(), attempts: 0, p50Ms: null, p95Ms: null });
  }
  for (const row of deliveries) {
    const b = buckets.get(Number(row.h));
    if (b) b.deliveries[row.status] += Number(row.n);
  }
  for (const row of attempts) {
    const b = buckets.get(Number(row.h));
    if (!b) continue;
    b.attempts = Number(row.n);
    b.p50Ms = row.p50 === null ? null : Math.round(Number(row.p50));
    b.p95Ms = row.p95 === null ? null : Math.round(Number(row.p95));
  }
  return [...buckets.values()];
}
