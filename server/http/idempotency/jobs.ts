/**
 * Idempotency-Key housekeeping as a declared job (server/lib/prune-job.ts): a batch of expired rows — answers
 * past their 24 hours, and reservations whose request never finished past their lease — deleted in one
 * statement per transaction. Expired rows are already ignored by reserveIdempotencyKey; this only keeps the
 * table small.
 */
import { idempotencyKeys } from "@/server/db/schema";
import { definePruneJob } from "@/server/lib/prune-job";

export function idempotencyJobs() {
  return {
    pruneExpired: definePruneJob({
      name: "idempotency-prune-expired",
      everyMs: 10 * 60_000,
      table: idempotencyKeys,
      id: idempotencyKeys.id,
      time: idempotencyKeys.expiresAt,
      cutoff: (at) => at,
    }),
  };
}
