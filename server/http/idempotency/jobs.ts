/**
 * Idempotency-Key housekeeping as a declared job (server/lib/jobs.ts): a batch of expired rows — answers past
 * their 24 hours, and reservations whose request never finished past their lease — is the due item, deleted
 * in one statement per transaction. Expired rows are already ignored by reserveIdempotencyKey; this only
 * keeps the table small.
 */
import { and, inArray, lte, notInArray } from "drizzle-orm";
import { idempotencyKeys } from "@/server/db/schema";
import { defineJob, type TDueItem } from "@/server/lib/jobs";

/** Rows removed per transaction: short transactions, one bounded parameter list. */
const BATCH = 1000;

export type TIdempotencyBatch = TDueItem & { ids: string[] };

export function idempotencyJobs() {
  return {
    pruneExpired: defineJob<TIdempotencyBatch>({
      name: "idempotency-prune-expired",
      everyMs: 10 * 60_000,
      async due(tx, { at, skip }) {
        const rows = await tx
          .select({ id: idempotencyKeys.id })
          .from(idempotencyKeys)
          .where(and(lte(idempotencyKeys.expiresAt, at), notInArray(idempotencyKeys.id, [...skip])))
          .orderBy(idempotencyKeys.expiresAt)
          .limit(BATCH)
          .for("update", { skipLocked: true });
        return rows[0] ? { id: rows[0].id, ids: rows.map((r) => r.id) } : undefined;
      },
      async handle(tx, batch) {
        await tx.delete(idempotencyKeys).where(inArray(idempotencyKeys.id, batch.ids));
      },
    }),
  };
}
