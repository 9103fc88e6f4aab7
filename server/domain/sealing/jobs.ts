/**
 * The sealing job's claim. "The state is the schedule": a package IN_PROGRESS with `seal_requested_at` set whose
 * `seal_next_attempt_at` has passed IS the due item. The claim (one short transaction, FOR UPDATE SKIP LOCKED)
 * counts the attempt, moves `seal_next_attempt_at` one lease later and writes a fresh claim token; the heavy
 * work (reading the originals, drawing, signing, storing) then runs OUTSIDE any transaction
 * (sealClaimedPackage), renewing the lease every SEAL_HEARTBEAT_MS (seal-lease.ts), and its commit is fenced by
 * the token. A worker that dies mid-seal stops renewing: one lease later the package is due again and another
 * worker seals it.
 *
 * Attempts are bounded: after SEAL_MAX_ATTEMPTS the package stops retrying on its own (`failSeal`). A due
 * package whose attempts are already used up had its last attempt's worker die (a failed attempt would have
 * been recorded): the claim then ends it as FAILED instead of trying once more — so even a document that kills
 * its worker every time is tried a bounded number of times.
 */
import { and, asc, eq, isNotNull, isNull, lte, notInArray, sql } from "drizzle-orm";
import { packages } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { defineJob, type TDueItem } from "@/server/lib/jobs";
import { failSeal } from "./fail-seal";

/** `lost`: the attempts were used up and the last one's worker died; the claim ended sealing (FAILED) instead. */
export type TSealClaim = TDueItem & { token: string; lost: boolean };

/**
 * How long a claimed seal may go without renewing its lease before another worker may take the package over.
 * With the worker's poll (WORKER_POLL_MS, 1 s by default), a seal whose worker died resumes within ~61 s.
 */
export const SEAL_LEASE_MS = 60_000;
/** How often a sealing worker renews its lease: four renewals per lease, so a slow database write or two is harmless. */
export const SEAL_HEARTBEAT_MS = 15_000;
/** Attempts (each counted when claimed) before sealing stops retrying on its own: ~2 hours of backoff (seal-retry-delay.ts). */
export const SEAL_MAX_ATTEMPTS = 8;

export const LOST_LAST_ATTEMPT_ERROR = "The worker sealing the package stopped during the last attempt (it was killed or crashed)";

export const claimSealJob = defineJob<TSealClaim>({
  name: "seal-packages",
  budget: 1,
  async due(tx, { at, skip }) {
    const [row] = await tx
      .select({ id: packages.id, attempts: packages.sealAttempts })
      .from(packages)
      .where(
        and(
          eq(packages.status, "IN_PROGRESS"),
          isNotNull(packages.sealRequestedAt),
          isNull(packages.deletedAt),
          isNull(packages.sealFailedAt),
          lte(packages.sealNextAttemptAt, at),
          notInArray(packages.id, [...skip]),
        ),
      )
      .orderBy(asc(packages.sealNextAttemptAt), asc(packages.id))
      .limit(1)
      .for("update", { skipLocked: true });
    return row ? { id: row.id, token: newId("slc"), lost: row.attempts >= SEAL_MAX_ATTEMPTS } : undefined;
  },
  async handle(tx, item, { at }) {
    if (item.lost) {
      const [pkg] = await tx.select().from(packages).where(eq(packages.id, item.id));
      await failSeal(tx, pkg!, { at, error: LOST_LAST_ATTEMPT_ERROR, attempts: pkg!.sealAttempts, why: `${SEAL_MAX_ATTEMPTS} attempts made` });
      return;
    }
    await tx
      .update(packages)
      .set({ sealClaimToken: item.token, sealAttempts: sql`${packages.sealAttempts} + 1`, sealNextAttemptAt: new Date(at.getTime() + SEAL_LEASE_MS) })
      .where(eq(packages.id, item.id));
  },
});
