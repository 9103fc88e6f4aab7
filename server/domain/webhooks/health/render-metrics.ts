/**
 * Prometheus text exposition for operators, instance-wide, computed from the database so every web
 * replica and worker reports the same figures. The attempt-duration histogram is cumulative: stored attempts
 * plus those already pruned or deleted (see attempt-histogram.ts), so its series never go down.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { DELIVERY_STATUSES, packages, webhookDeliveries, webhookEndpoints, webhookQueue } from "@/server/db/schema";
import { isFailingSql } from "./failing";
import { DURATION_BUCKETS_SECONDS, readAttemptHistogram } from "@/server/domain/webhooks/delivery/attempt-histogram";

export async function renderMetrics(db: Db, at: Date): Promise<string> {
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  const byStatus = await db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .groupBy(webhookDeliveries.status);
  metric("foliosign_webhook_deliveries", "gauge", "Stored webhook deliveries by status.");
  for (const s of DELIVERY_STATUSES) {
    lines.push(`foliosign_webhook_deliveries{status="${s}"} ${Number(byStatus.find((r) => r.status === s)?.n ?? 0)}`);
  }

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

  const h = await readAttemptHistogram(db);
  metric("foliosign_webhook_attempt_duration_seconds", "histogram", "Duration of webhook delivery attempts (cumulative since install).");
  for (const b of DURATION_BUCKETS_SECONDS) lines.push(`foliosign_webhook_attempt_duration_seconds_bucket{le="${b}"} ${h[String(b)] ?? 0}`);
  lines.push(`foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} ${h["+Inf"] ?? 0}`);
  lines.push(`foliosign_webhook_attempt_duration_seconds_sum ${(h.sum_ms ?? 0) / 1000}`);
  lines.push(`foliosign_webhook_attempt_duration_seconds_count ${h["+Inf"] ?? 0}`);

  // The backlog is the queue (one row per PENDING or FAILED delivery): its size, and its oldest delivery's age.
  const [queue] = await db
    .select({ n: sql<number>`count(*)::int`, oldest: sql<Date | string | null>`min(${webhookDeliveries.createdAt})` })
    .from(webhookQueue)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookQueue.deliveryId));
  metric("foliosign_webhook_queue_backlog", "gauge", "Deliveries still to be delivered (PENDING or FAILED awaiting retry).");
  lines.push(`foliosign_webhook_queue_backlog ${Number(queue?.n ?? 0)}`);
  const oldest = queue?.oldest ? new Date(queue.oldest) : null;
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
