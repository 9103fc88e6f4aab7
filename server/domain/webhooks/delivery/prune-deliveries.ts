import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { runDueItem, type TDeclaredJob } from "@/server/lib/jobs";
import { webhookRetentionJobs, type TIdBatch } from "@/server/domain/webhooks/jobs";

/**
 * Retention, all at once: finished deliveries (DELIVERED, EXHAUSTED) older than WEBHOOK_RETENTION_DAYS go, with
 * their attempts (deleted with them by a trigger; they stay counted in the cumulative metrics histogram), then
 * events no delivery refers to any more. Queued deliveries are never pruned. The same declared jobs the worker
 * runs (./jobs.ts), drained here: one batch per transaction.
 */
export async function pruneDeliveries(db: Db, opts: { retentionDays?: number } = {}): Promise<{ deliveries: number; events: number }> {
  const jobs = webhookRetentionJobs(opts);
  const at = now();
  const deliveries = await drain(db, jobs.pruneDeliveries, at);
  const events = await drain(db, jobs.pruneEvents, at);
  return { deliveries, events };
}

async function drain(db: Db, job: TDeclaredJob<TIdBatch>, at: Date): Promise<number> {
  let removed = 0;
  for (;;) {
    const run = await runDueItem(db, job, { at, skip: [] });
    if (!run) return removed;
    if ("error" in run) throw run.error;
    removed += run.item.ids.length;
  }
}
