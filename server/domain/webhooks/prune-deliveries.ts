import { and, inArray, lt, notExists, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries, webhookEvents } from "@/server/db/schema";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Retention: finished deliveries (DELIVERED, EXHAUSTED) older than WEBHOOK_RETENTION_DAYS go, with their
 * attempts (cascade), then events no delivery refers to any more. Queued deliveries are never pruned.
 */
export async function pruneDeliveries(db: Db, opts: { retentionDays?: number } = {}): Promise<{ deliveries: number; events: number }> {
  const cutoff = new Date(now().getTime() - (opts.retentionDays ?? env().WEBHOOK_RETENTION_DAYS) * DAY);
  const deliveries = await db
    .delete(webhookDeliveries)
    .where(and(lt(webhookDeliveries.createdAt, cutoff), inArray(webhookDeliveries.status, ["DELIVERED", "EXHAUSTED"])))
    .returning({ id: webhookDeliveries.id });
  const events = await db
    .delete(webhookEvents)
    .where(
      and(
        lt(webhookEvents.createdAt, cutoff),
        notExists(db.select({ one: sql`1` }).from(webhookDeliveries).where(sql`${webhookDeliveries.eventId} = ${webhookEvents.id}`)),
      ),
    )
    .returning({ id: webhookEvents.id });
  return { deliveries: deliveries.length, events: events.length };
}
