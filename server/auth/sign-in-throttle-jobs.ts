/**
 * The sign-in throttle's housekeeping as declared jobs (server/lib/jobs.ts): a batch of failures past the
 * throttle's window, or of known addresses not signed in from for 30 days, is the due item, deleted in one
 * statement per transaction. The throttle already ignores such rows (./sign-in-throttle.ts); this only keeps
 * the tables small, and no address is kept longer than it is needed.
 */
import { and, inArray, lte, notInArray } from "drizzle-orm";
import { signInFailures, signInKnownAddresses } from "@/server/db/schema";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { KNOWN_ADDRESS_MS, SIGN_IN_WINDOW_MS } from "./sign-in-throttle";

/** Rows removed per transaction: short transactions, one bounded parameter list. */
const BATCH = 1000;

export type TSignInBatch = TDueItem & { ids: string[] };

export function signInThrottleJobs() {
  return {
    pruneFailures: defineJob<TSignInBatch>({
      name: "sign-in-prune-failures",
      everyMs: 5 * 60_000,
      async due(tx, { at, skip }) {
        const rows = await tx
          .select({ id: signInFailures.id })
          .from(signInFailures)
          .where(and(lte(signInFailures.failedAt, new Date(at.getTime() - SIGN_IN_WINDOW_MS)), notInArray(signInFailures.id, [...skip])))
          .orderBy(signInFailures.failedAt)
          .limit(BATCH)
          .for("update", { skipLocked: true });
        return rows[0] ? { id: rows[0].id, ids: rows.map((r) => r.id) } : undefined;
      },
      async handle(tx, batch) {
        await tx.delete(signInFailures).where(inArray(signInFailures.id, batch.ids));
      },
    }),
    pruneKnownAddresses: defineJob<TSignInBatch>({
      name: "sign-in-prune-known-addresses",
      everyMs: 60 * 60_000,
      async due(tx, { at, skip }) {
        const rows = await tx
          .select({ id: signInKnownAddresses.id })
          .from(signInKnownAddresses)
          .where(and(lte(signInKnownAddresses.signedInAt, new Date(at.getTime() - KNOWN_ADDRESS_MS)), notInArray(signInKnownAddresses.id, [...skip])))
          .orderBy(signInKnownAddresses.signedInAt)
          .limit(BATCH)
          .for("update", { skipLocked: true });
        return rows[0] ? { id: rows[0].id, ids: rows.map((r) => r.id) } : undefined;
      },
      async handle(tx, batch) {
        await tx.delete(signInKnownAddresses).where(inArray(signInKnownAddresses.id, batch.ids));
      },
    }),
  };
}
