/**
 * The sealing job's claim. "The state is the schedule": a package IN_PROGRESS with `seal_requested_at` set whose
 * `seal_next_attempt_at` has passed IS the due item. The claim (one short transaction, FOR UPDATE SKIP LOCKED)
 * counts the attempt, moves `seal_next_attempt_at` one lease later and writes a fresh claim token; the heavy
 * work (reading the originals, drawing, signing, storing) then runs OUTSIDE any transaction
 * (sealClaimedPackage), and its commit is fenced by the token. A worker that dies mid-seal leaves a lease that
 * expires: the package is due again and another worker seals it.
 */
import { and, asc, eq, isNotNull, isNull, lte, notInArray, sql } from "drizzle-orm";
import { packages } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { defineJob, type TDueItem } from "@/server/lib/jobs";

export type TSealClaim = TDueItem & { token: string };

/** How long a claimed seal may take before another worker may take the package over. */
export const SEAL_LEASE_MS = 10 * 60_000;

export const claimSealJob = defineJob<TSealClaim>({
  name: "seal-packages",
  budget: 1,
  async due(tx, { at, skip }) {
    const [row] = await tx
      .select({ id: packages.id })
      .from(packages)
      .where(
        and(
          eq(packages.status, "IN_PROGRESS"),
          isNotNull(packages.sealRequestedAt),
          isNull(packages.deletedAt),
          lte(packages.sealNextAttemptAt, at),
          notInArray(packages.id, [...skip]),
        ),
      )
      .orderBy(asc(packages.sealNextAttemptAt), asc(packages.id))
      .limit(1)
      .for("update", { skipLocked: true });
    return row ? { id: row.id, token: newId("slc") } : undefined;
  },
  async handle(tx, item, { at }) {
    await tx
      .update(packages)
      .set({ sealClaimToken: item.token, sealAttempts: sql`${packages.sealAttempts} + 1`, sealNextAttemptAt: new Date(at.getTime() + SEAL_LEASE_MS) })
      .where(eq(packages.id, item.id));
  },
});
