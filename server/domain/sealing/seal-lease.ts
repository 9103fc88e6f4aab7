/**
 * The seal's lease, kept alive while it works. A claim (jobs.ts) leases the package for SEAL_LEASE_MS; the
 * worker renews it every SEAL_HEARTBEAT_MS, each renewal fenced by its claim token, so a worker that dies is
 * replaced one lease later (not after the whole seal's worst case) and a live one is never taken over. A
 * renewal that finds another token (the lease had run out and another worker claimed the package) aborts the
 * seal: the stale worker stops at its next step, and it checks once more — fenced — before it stores anything;
 * its commit is fenced too. So two workers never store or commit a seal of one package, and a stale one
 * stops working within a heartbeat of noticing.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";
import { SEAL_LEASE_MS, type TSealClaim } from "./jobs";

/** Moves the lease one SEAL_LEASE_MS past `at` if the claim is still this one; false when it is not. */
export async function renewSealLease(db: Db, claim: Pick<TSealClaim, "id" | "token">, at = now()): Promise<boolean> {
  const renewed = await db
    .update(packages)
    .set({ sealNextAttemptAt: new Date(at.getTime() + SEAL_LEASE_MS) })
    .where(and(eq(packages.id, claim.id), eq(packages.sealClaimToken, claim.token), eq(packages.status, "IN_PROGRESS"), isNull(packages.deletedAt)))
    .returning({ id: packages.id });
  return renewed.length === 1;
}

export type TSealHeartbeat = {
  /** Aborted once a renewal found the claim replaced. */
  signal: AbortSignal;
  /** Renews now (after any renewal in flight); false, and `signal` aborted, when the claim is no longer ours. */
  renew(): Promise<boolean>;
  stop(): void;
};

/** Renews the claim's lease every `everyMs` until stopped. A renewal that errors (the database) is retried at the next beat. */
export function startSealHeartbeat(db: Db, claim: Pick<TSealClaim, "id" | "token">, everyMs: number): TSealHeartbeat {
  const controller = new AbortController();
  let last: Promise<boolean> = Promise.resolve(true);
  const renew = () => {
    last = last
      .catch(() => undefined)
      .then(async () => {
        if (controller.signal.aborted) return false;
        if (await renewSealLease(db, claim)) return true;
        logger().warn({ packageId: claim.id }, "sealing lost its lease to another worker: this attempt stops");
        controller.abort(new Error("the seal's lease was taken over by another worker"));
        return false;
      });
    return last;
  };
  const timer = setInterval(() => {
    renew().catch((err: unknown) => logger().warn({ err, packageId: claim.id }, "could not renew the seal's lease; trying again at the next beat"));
  }, everyMs);
  timer.unref();
  return {
    signal: controller.signal,
    renew: () => renew(),
    stop: () => clearInterval(timer),
  };
}
