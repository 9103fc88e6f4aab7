/**
 * The evidence jobs' claims (issue 20). "The state is the schedule", on `package_evidence`:
 * - upgrade: `upgrade_next_attempt_at` has passed — files sealed below B-LTA because no TSA answered;
 * - renewal: at B-LTA, the newest document time-stamp's TSA certificate expires within EVIDENCE_RENEWAL_DAYS,
 *   and `renew_not_before` (a failed or fruitless renewal's wait) has passed.
 * As for sealing, a claim is one short transaction (FOR UPDATE SKIP LOCKED) that counts the attempt, writes a
 * fresh claim token and holds the row for EVIDENCE_LEASE_MS; the network work (TSA, revocation data) and the
 * storing run outside any transaction, and the commit is fenced by the token (improve-claimed-evidence.ts).
 * A worker that dies is replaced one lease later. Neither job runs while no TSA is configured.
 */
import { and, asc, eq, isNull, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { packageEvidence, packages } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { defineJob, type TDueItem } from "@/server/lib/jobs";

export type TEvidenceMode = "upgrade" | "renew";
export type TEvidenceClaim = TDueItem & { token: string; mode: TEvidenceMode };

/** How long a claim holds the package: several TSA round trips per file, each bounded by TSA_TIMEOUT_MS. */
export const EVIDENCE_LEASE_MS = 10 * 60_000;
/** After sealing below B-LTA the first upgrade is tried this soon (the issue: within 30 s). */
export const FIRST_UPGRADE_DELAY_MS = 15_000;

/** Wait after the n-th failed upgrade: 30 s, 1 min, 2 min, … at most an hour, never giving up. */
export function upgradeRetryDelay(failedAttempts: number): number {
  return Math.min(FIRST_UPGRADE_DELAY_MS * 2 ** Math.max(1, failedAttempts), 60 * 60_000);
}

/** Wait after the n-th failed renewal: an hour, doubling, at most a day (renewal starts months ahead). */
export function renewalRetryDelay(failedAttempts: number): number {
  return Math.min(60 * 60_000 * 2 ** Math.max(0, failedAttempts - 1), 24 * 60 * 60_000);
}

const DAY_MS = 24 * 60 * 60_000;

/** Takes the lease (claim token, claimed until) and counts the attempt; `more` names the mode's own columns. */
async function takeClaim(tx: Db, item: TEvidenceClaim, at: Date, more: (until: Date) => PgUpdateSetSource<typeof packageEvidence>) {
  const until = new Date(at.getTime() + EVIDENCE_LEASE_MS);
  await tx
    .update(packageEvidence)
    .set({ claimToken: item.token, claimedUntil: until, ...more(until) })
    .where(eq(packageEvidence.packageId, item.id));
}

const claimable = (at: Date) => or(isNull(packageEvidence.claimedUntil), lte(packageEvidence.claimedUntil, at));

/** The next completed, live package whose evidence is due (`due`), unclaimed and not skipped, row-locked (SKIP LOCKED). */
async function nextClaim(tx: Db, at: Date, skip: readonly string[], mode: TEvidenceMode, due: SQL, order: PgColumn): Promise<TEvidenceClaim | undefined> {
  const [row] = await tx
    .select({ id: packageEvidence.packageId })
    .from(packageEvidence)
    .innerJoin(packages, eq(packages.id, packageEvidence.packageId))
    .where(and(due, claimable(at), eq(packages.status, "COMPLETED"), isNull(packages.deletedAt), notInArray(packageEvidence.packageId, [...skip])))
    .orderBy(asc(order), asc(packageEvidence.packageId))
    .limit(1)
    .for("update", { of: packageEvidence, skipLocked: true });
  return row ? { id: row.id, token: newId("evc"), mode } : undefined;
}

export const claimEvidenceUpgradeJob = defineJob<TEvidenceClaim>({
  name: "evidence-upgrade",
  budget: 1,
  due: (tx, { at, skip }) => nextClaim(tx, at, skip, "upgrade", lte(packageEvidence.upgradeNextAttemptAt, at), packageEvidence.upgradeNextAttemptAt),
  handle: (tx, item, { at }) =>
    takeClaim(tx, item, at, (until) => ({ upgradeAttempts: sql`${packageEvidence.upgradeAttempts} + 1`, upgradeNextAttemptAt: until })),
});

/** The renewal's claim; `windowDays` is EVIDENCE_RENEWAL_DAYS (read by the caller, so tests can pass their own). */
export function claimEvidenceRenewalJob(windowDays: number) {
  return defineJob<TEvidenceClaim>({
    name: "evidence-renewal",
    budget: 1,
    due: (tx, { at, skip }) =>
      nextClaim(
        tx,
        at,
        skip,
        "renew",
        and(
          eq(packageEvidence.level, "B-LTA"),
          isNull(packageEvidence.upgradeNextAttemptAt),
          lte(packageEvidence.tsaCertificateNotAfter, new Date(at.getTime() + windowDays * DAY_MS)),
          or(isNull(packageEvidence.renewNotBefore), lte(packageEvidence.renewNotBefore, at)),
        )!,
        packageEvidence.tsaCertificateNotAfter,
      ),
    handle: (tx, item, { at }) => takeClaim(tx, item, at, (until) => ({ renewAttempts: sql`${packageEvidence.renewAttempts} + 1`, renewNotBefore: until })),
  });
}
