/**
 * The delivery workers' rows in webhook_workers (the worker job writes its own every WEBHOOK_LIMITS.workerHeartbeatMs
 * and deletes it when it stops): a claim reads them to know whether its worker is the only live one, the one that
 * claims ahead (claim-deliveries.ts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { queryPrepared } from "@/server/db/driver";
import { now } from "@/server/lib/clock";

/** The worker's row in webhook_workers, written now; rows of workers gone for a day are deleted with it. */
export async function markAlive(db: Db, workerId: string): Promise<void> {
  const at = now();
  const longGone = new Date(at.getTime() - 24 * 60 * 60 * 1000).toISOString();
  await queryPrepared(
    db,
    sql`with gone as (delete from webhook_workers where seen_at < ${longGone}::timestamptz)
    insert into webhook_workers (id, seen_at) values (${workerId}, ${at.toISOString()}::timestamptz)
    on conflict (id) do update set seen_at = excluded.seen_at`,
  );
}

/** A stopped worker's row goes: the others need not wait for it to age out of the live ones. */
export async function markGone(db: Db, workerId: string): Promise<void> {
  await queryPrepared(db, sql`delete from webhook_workers where id = ${workerId}`);
}
