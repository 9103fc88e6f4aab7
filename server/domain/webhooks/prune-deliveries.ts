import { and, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEvents } from "@/server/db/schema";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { foldAttemptsIntoHistogram } from "./attempt-histogram";

const DAY = 24 * 60 * 60 * 1000;

/** Deliveries removed per transaction: short transactions, and one array parameter of bounded size. */
const BATCH = 1000;

/**
 * Retention: finished deliveries (DELIVERED, EXHAUSTED) older than WEBHOOK_RETENTION_DAYS go, with their
 * attempts (cascade; their durations folded into the metrics histogram first), then events no delivery refers
 * to any more. Queued deliveries are never pruned. Works in batches of BATCH, each its own transaction.
 */
export async function pruneDeliveries(db: Db, opts: { retentionDays?: number } = {}): Promise<{ deliveries: number; events: number }> {
  const cutoff = new Date(now().getTime() - (opts.retentionDays ?? env().WEBHOOK_RETENTION_DAYS) * DAY);
  let deliveries = 0;
  for (;;) {
    const removed = await db.transaction(async (tx) => {
      // Lock the rows first, so the attempts folded into the histogram are exactly those deleted (a replay
      // cannot turn one back to PENDING in between); rows another transaction holds wait for the next run.
      const rows = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(lt(webhookDeliveries.createdAt, cutoff), inArray(webhookDeliveries.status, ["DELIVERED", "EXHAUSTED"])))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      if (rows.length === 0) return 0;
      const ids = `{${rows.map((r) => r.id).join(",")}}`;
      await foldAttemptsIntoHistogram(tx, sql`select unnest(${ids}::text[])`);
      await tx.delete(webhookDeliveries).where(sql`${webhookDeliveries.id} = any(${ids}::text[])`);
      return rows.length;
    });
    deliveries += removed;
    if (removed < BATCH) break;
  }
  return { deliveries, events: await pruneOrphanEvents(db, cutoff) };
}

async function pruneOrphanEvents(db: Db, cutoff: Date): Promise<number> {
  const events = await db
    .delete(webhookEvents)
    .where(
      and(
        lt(webhookEvents.createdAt, cutoff),
        notExists(db.select({ one: sql`1` }).from(webhookDeliveries).where(sql`${webhookDeliveries.eventId} = ${webhookEvents.id}`)),
      ),
    )
    .returning({ id: webhookEvents.id });
  return events.length;
}
