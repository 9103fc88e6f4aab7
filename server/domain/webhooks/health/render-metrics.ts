/**
 * Prometheus text exposition for operators, instance-wide, computed from the database so every web
 * replica and worker reports the same figures. What grows with the retained history (finished deliveries, the
 * attempt-duration histogram) is read from the tallies triggers keep (webhook-totals.ts), what is waiting from the
 * queue: a scrape's cost follows the backlog, not the history. The histogram is cumulative: its series never go down.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { DELIVERY_STATUSES, packages, type TDeliveryStatus, webhookDeliveries, webhookEndpoints, webhookQueue } from "@/server/db/schema";
import { isFailingSql } from "./failing";
import { DURATION_BUCKETS, readWebhookTotals } from "./webhook-totals";

/**
 * The scrape's reads run in one read-only REPEATABLE READ transaction: every figure comes from one snapshot. Read one
 * after the other, a delivery that finished between the tallies' read and the queue's was in neither (the deliveries
 * by status dipped by one) or, the other way round, in both (health/metrics-snapshot.test.ts).
 */
export async function renderMetrics(db: Db, at: Date): Promise<string> {
  return db.transaction((tx) => renderFrom(tx, at), { isolationLevel: "repeatable read", accessMode: "read only" });
}

async function renderFrom(db: Db, at: Date): Promise<string> {
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  // The finished ones from the tallies (kept by triggers, a few rows), the waiting ones from the queue, which holds
  // exactly them: a scrape reads neither every retained delivery nor every stored attempt.
  const totals = await readWebhookTotals(db);
  const waiting = await db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${webhookDeliveries.createdAt})` })
    .from(webhookQueue)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookQueue.deliveryId))
    .groupBy(webhookDeliveries.status);
  const byStatus: Record<TDeliveryStatus, number> = { PENDING: 0, DELIVERED: totals.delivered, FAILED: 0, EXHAUSTED: totals.exhausted };
  for (const w of waiting) if (w.status === "PENDING" || w.status === "FAILED") byStatus[w.status] += Number(w.n);
  metric("foliosign_webhook_deliveries", "gauge", "Stored webhook deliveries by status.");
  for (const s of DELIVERY_STATUSES) lines.push(`foliosign_webhook_deliveries{status="${s}"} ${byStatus[s]}`);
  metric(
    "foliosign_webhook_deliveries_finished_total",
    "counter",
    "Webhook deliveries that reached a final status, since install (a replayed delivery that ends again counts again).",
  );
  lines.push(`foliosign_webhook_deliveries_finished_total{status="DELIVERED"} ${totals.deliveredTotal}`);
  lines.push(`foliosign_webhook_deliveries_finished_total{status="EXHAUSTED"} ${totals.exhaustedTotal}`);

  const [states] = await db
    .select({
      paused: sql<number>`count(*) filter (where not ${webhookEndpoints.enabled})::int`,
      failing: sql<number>`count(*) filter (where ${isFailingSql})::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(webhookEndpoints);
  const paused = Number(states?.paused ?? 0);
  const failing = Number(states?.failing ?? 0);
  metric("foliosign_webhook_endpoints", "gauge", "Webhook endpoints by displayed state.");
  lines.push(`foliosign_webhook_endpoints{state="Active"} ${Number(states?.total ?? 0) - paused - failing}`);
  lines.push(`foliosign_webhook_endpoints{state="Paused"} ${paused}`);
  lines.push(`foliosign_webhook_endpoints{state="Failing"} ${failing}`);

  metric("foliosign_webhook_attempt_duration_seconds", "histogram", "Duration of webhook delivery attempts (cumulative since install).");
  DURATION_BUCKETS.forEach((b, i) => lines.push(`foliosign_webhook_attempt_duration_seconds_bucket{le="${b.seconds}"} ${totals.buckets[i]}`));
  lines.push(`foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} ${totals.attempts}`);
  lines.push(`foliosign_webhook_attempt_duration_seconds_sum ${totals.durationMs / 1000}`);
  lines.push(`foliosign_webhook_attempt_duration_seconds_count ${totals.attempts}`);

  // The backlog is the queue (one row per PENDING or FAILED delivery): its size, and its oldest delivery's age.
  const backlog = waiting.reduce((n, w) => n + Number(w.n), 0);
  metric("foliosign_webhook_queue_backlog", "gauge", "Deliveries still to be delivered (PENDING or FAILED awaiting retry).");
  lines.push(`foliosign_webhook_queue_backlog ${backlog}`);
  const oldest = waiting.reduce<Date | null>((min, w) => {
    const at = w.oldest ? new Date(w.oldest) : null;
    return at && (!min || at < min) ? at : min;
  }, null);
  metric("foliosign_webhook_oldest_pending_age_seconds", "gauge", "Age of the oldest delivery still to be delivered (0 when none).");
  lines.push(`foliosign_webhook_oldest_pending_age_seconds ${oldest ? Math.max(0, Math.floor((at.getTime() - oldest.getTime()) / 1000)) : 0}`);

  // Sealing (server/domain/sealing/): alert on FAILED > 0 — those packages wait for someone to retry them.
  const [sealing] = await db
    .select({
      failed: sql<number>`count(*) filter (where ${packages.sealFailedAt} is not null)::int`,
      retrying: sql<number>`count(*) filter (where ${packages.sealFailedAt} is null and ${packages.sealLastError} is not null and ${packages.sealClaimToken} is null and ${packages.sealAttempts} > 0)::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(packages)
    .where(and(eq(packages.status, "IN_PROGRESS"), isNotNull(packages.sealRequestedAt), isNull(packages.deletedAt)));
  const sealFailed = Number(sealing?.failed ?? 0);
  const sealRetrying = Number(sealing?.retrying ?? 0);
  metric(
    "foliosign_sealing_packages",
    "gauge",
    "Packages every recipient has finished, still being sealed, by state (FAILED: stopped retrying, needs someone).",
  );
  lines.push(`foliosign_sealing_packages{state="PENDING"} ${Number(sealing?.total ?? 0) - sealFailed - sealRetrying}`);
  lines.push(`foliosign_sealing_packages{state="RETRYING"} ${sealRetrying}`);
  lines.push(`foliosign_sealing_packages{state="FAILED"} ${sealFailed}`);
  return lines.join("\n") + "\n";
}
