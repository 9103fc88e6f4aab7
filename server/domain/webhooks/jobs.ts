/**
 * Webhook housekeeping as declared jobs (server/lib/jobs.ts; run by the worker, see server/jobs/README.md).
 * The delivery queue itself is NOT one of them: it keeps its specialised claim (claim-deliveries.ts).
 * - drop-paused: a paused endpoint that still has queued deliveries no worker holds is the due item (the
 *   pause drops them itself; this catches those whose worker died while holding them).
 * - prune-deliveries / prune-events: a batch of finished deliveries older than WEBHOOK_RETENTION_DAYS, then of
 *   events no delivery refers to any more, is the due item; one batch per transaction.
 * - fold-webhook-tallies: the rows the metrics' triggers append (schema: webhookTallies), two or more, are folded
 *   into one, so a scrape sums a few rows. The sum is exact without it; folding keeps it short.
 */
import { and, asc, getTableColumns, inArray, lt, notExists, notInArray, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { webhookDeliveries, webhookEvents, webhookTallies } from "@/server/db/schema";
import { env } from "@/server/env";
import { idArray } from "@/server/lib/ids";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { dropQueuedDeliveries } from "./delivery/drop-paused-deliveries";

const DAY = 24 * 60 * 60 * 1000;

/** Rows removed per transaction: short transactions, and one array parameter of bounded size. */
const BATCH = 1000;
/** Tally rows folded per transaction. */
const TALLY_BATCH = 10_000;

/** Every counting column of webhook_tallies (all but its id). */
const TALLY_COLUMNS = Object.values(getTableColumns(webhookTallies))
  .filter((c) => c !== webhookTallies.id)
  .map((c) => `"${c.name}"`);

/** A batch of rows, named by its first id. */
export type TIdBatch = TDueItem & { ids: string[] };

/**
 * Locks up to BATCH rows of `table` that `where` selects, skipping those another transaction holds (they wait
 * for the next batch) and those the runner asked to skip.
 */
async function lockBatch(
  tx: Db,
  table: typeof webhookDeliveries | typeof webhookEvents,
  where: SQL | undefined,
  skip: readonly string[],
): Promise<TIdBatch | undefined> {
  const rows = await tx
    .select({ id: table.id })
    .from(table)
    .where(and(where, notInArray(table.id, [...skip])))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  return rows[0] ? { id: rows[0].id, ids: rows.map((r) => r.id) } : undefined;
}

/** `retentionDays` overrides WEBHOOK_RETENTION_DAYS (tests); read when a job looks, not when it is declared. */
export function webhookRetentionJobs(opts: { retentionDays?: number } = {}) {
  const cutoff = (at: Date) => new Date(at.getTime() - (opts.retentionDays ?? env().WEBHOOK_RETENTION_DAYS) * DAY);
  const orphanEvents = (db: Db) =>
    notExists(
      db
        .select({ one: sql`1` })
        .from(webhookDeliveries)
        .where(sql`${webhookDeliveries.eventId} = ${webhookEvents.id}`),
    );

  return {
    dropPaused: defineJob<TDueItem>({
      name: "webhook-drop-paused",
      everyMs: 60_000,
      async due(tx, { at, skip }) {
        // "Queued and no worker holds it" as in dropQueuedDeliveries. The endpoint is locked FOR NO KEY UPDATE
        // (as the pause's own update does), so inserting deliveries (FOR KEY SHARE) is never blocked.
        const rows = await queryRows<{ id: string }>(
          tx,
          sql`select e.id from webhook_endpoints e
          where not e.enabled and ${notInArray(sql`e.id`, [...skip])}
            and exists (
              select 1 from webhook_queue q
              where q.endpoint_id = e.id and (q.claim_token is null or q.locked_until <= ${at.toISOString()}::timestamptz))
          order by e.id limit 1
          for no key update of e skip locked`,
        );
        return rows[0];
      },
      async handle(tx, endpoint, { at }) {
        await dropQueuedDeliveries(tx, sql`e.id = ${endpoint.id}`, at);
      },
    }),

    pruneDeliveries: defineJob<TIdBatch>({
      name: "webhook-prune-deliveries",
      everyMs: 10 * 60_000,
      async due(tx, { at, skip }) {
        // Locked, so a replay cannot turn one back to PENDING between the choice and the deletion.
        const finished = and(lt(webhookDeliveries.createdAt, cutoff(at)), inArray(webhookDeliveries.status, ["DELIVERED", "EXHAUSTED"]));
        return lockBatch(tx, webhookDeliveries, finished, skip);
      },
      async handle(tx, batch) {
        await tx.delete(webhookDeliveries).where(sql`${webhookDeliveries.id} = any(${idArray(batch.ids)}::text[])`);
      },
    }),

    pruneEvents: defineJob<TIdBatch>({
      name: "webhook-prune-events",
      everyMs: 10 * 60_000,
      async due(tx, { at, skip }) {
        return lockBatch(tx, webhookEvents, and(lt(webhookEvents.createdAt, cutoff(at)), orphanEvents(tx)), skip);
      },
      async handle(tx, batch) {
        // Checked again: a delivery committed since the claim's snapshot keeps its event.
        await tx.delete(webhookEvents).where(and(sql`${webhookEvents.id} = any(${idArray(batch.ids)}::text[])`, orphanEvents(tx)));
      },
    }),

    foldTallies: defineJob<TDueItem & { ids: number[] }>({
      name: "fold-webhook-tallies",
      everyMs: 10_000,
      budget: 10,
      async due(tx, { skip }) {
        // Locked, so two workers never fold the same row; a writer's uncommitted row is not seen at all.
        const t = webhookTallies;
        const rows = await tx
          .select({ id: t.id })
          .from(t)
          .where(notInArray(t.id, skip.map(Number)))
          .orderBy(asc(t.id))
          .limit(TALLY_BATCH)
          .for("update", { skipLocked: true });
        // One row is folded already: nothing to do.
        return rows.length >= 2 ? { id: String(rows[0]!.id), ids: rows.map((r) => r.id) } : undefined;
      },
      async handle(tx, batch) {
        const columns = sql.raw(TALLY_COLUMNS.join(", "));
        const sums = sql.raw(TALLY_COLUMNS.map((c) => `sum(${c})`).join(", "));
        await tx.execute(sql`with gone as (delete from webhook_tallies where id = any(${`{${batch.ids.join(",")}}`}::bigint[]) returning *)
          insert into webhook_tallies (${columns}) select ${sums} from gone`);
      },
    }),
  };
}
