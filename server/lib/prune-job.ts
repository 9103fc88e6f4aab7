/**
 * A housekeeping job that deletes rows past a cutoff, declared once for every table that needs one (the
 * Idempotency-Key answers, the sign-in throttle's failures and known addresses): a batch of rows whose `time`
 * is at or before `cutoff(at)` is the due item, locked with SKIP LOCKED and deleted in one statement per
 * transaction. The owners already ignore such rows; pruning only keeps the tables small.
 */
import { and, inArray, lte, notInArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { defineJob, type TDueItem } from "./jobs";

/** Rows removed per transaction: short transactions, one bounded parameter list. */
const BATCH = 1000;

type TPruneBatch = TDueItem & { ids: string[] };

export function definePruneJob(spec: { name: string; everyMs: number; table: PgTable; id: PgColumn; time: PgColumn; cutoff: (at: Date) => Date }) {
  return defineJob<TPruneBatch>({
    name: spec.name,
    everyMs: spec.everyMs,
    async due(tx, { at, skip }) {
      const rows = await tx
        .select({ id: spec.id })
        .from(spec.table)
        .where(and(lte(spec.time, spec.cutoff(at)), notInArray(spec.id, [...skip])))
        .orderBy(spec.time)
        .limit(BATCH)
        .for("update", { skipLocked: true });
      const ids = rows.map((r) => String(r.id));
      return ids[0] ? { id: ids[0], ids } : undefined;
    },
    async handle(tx, batch) {
      await tx.delete(spec.table).where(inArray(spec.id, batch.ids));
    },
  });
}
