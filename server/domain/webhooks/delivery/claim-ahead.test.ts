/**
 * Protects claiming ahead (claim-deliveries.ts, "claiming ahead") on the real database with an injected clock:
 * - the only live worker holds up to `ahead` leases of an endpoint no other worker holds (its tokens start with
 *   its id); retries keep the cap's share;
 * - the per-endpoint cap across workers: another worker finds no room at an endpoint held beyond the cap; below
 *   it, it takes the rest of the cap, and neither claims ahead while the other holds a lease there, so two holders
 *   never hold more than the cap together; once the other's leases end, the one left claims ahead again;
 * - while another worker is live, and for a worker that is not live (no row in webhook_workers, or one older than
 *   `workerAliveMs`), every endpoint is claimed up to the cap only;
 * - without a worker id (tools, tests) the claim is the one without claiming ahead.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { claimDeliveries, type TClaim } from "./claim-deliveries";
import { markAlive, markGone } from "./live-workers";
import { releaseClaim } from "./release-claim";
import { raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
let clock = new Date("2030-01-01T00:00:00.000Z");
const useClock = () => {
  clock = new Date("2030-01-01T00:00:00.000Z");
  setClock(() => clock);
};
const URL_A = "https://93.184.216.34/a";
const CAP = WEBHOOK_LIMITS.perEndpointCap;
const AHEAD = WEBHOOK_LIMITS.claimAhead;
const RETRY_CAP = CAP - WEBHOOK_LIMITS.firstAttemptReserve;

/** An endpoint with `n` first attempts due now (its deliveries' ids, oldest first). */
async function endpointWith(n: number) {
  const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(...(await raisePackageSent(t.db, actor, `p_${i}`)).deliveryIds);
  return { actor, endpoint, ids };
}

/** Two worker ids. */
const WORKERS: [string, string] = ["wa", "wb"];

const claimAs = (worker: string, limit: number) => claimDeliveries(t.db, { limit, ahead: AHEAD, worker });

/** Live leases per token prefix (the worker's id), as the database holds them. */
async function leasesBy(): Promise<Record<string, number>> {
  const rows = await queryRows<{ worker: string; n: number }>(
    t.db,
    sql`select split_part(claim_token, '.', 1) as worker, count(*)::int as n from webhook_queue
        where claim_token is not null and locked_until > ${clock.toISOString()}::timestamptz group by 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.worker, r.n]));
}

const release = (claims: readonly TClaim[]) => Promise.all(claims.map((c) => releaseClaim(t.db, c)));

describe("claiming ahead", () => {
  it("the only live worker holds up to `ahead` leases of an endpoint, its tokens prefixed with its id; another finds no room there", async () => {
    useClock();
    const { ids } = await endpointWith(AHEAD + 6);
    const [a, b] = WORKERS;
    await markAlive(t.db, a);
    const first = await claimAs(a, 100);
    expect(first).toHaveLength(AHEAD);
    expect(new Set(first.map((c) => c.id)).size).toBe(AHEAD);
    for (const c of first) expect(ids).toContain(c.id);
    for (const c of first) expect(c.token.startsWith(`${a}.`)).toBe(true);
    expect(await claimAs(a, 100)).toEqual([]);
    // A second live worker: the endpoint is held beyond the cap, so it gets nothing there; nor does the first,
    // which is no longer alone (the cap less every lease: none), even with five of its leases given back.
    await markAlive(t.db, b);
    expect(await claimAs(b, 100)).toEqual([]);
    await release(first.slice(0, 5));
    expect(await claimAs(a, 100)).toEqual([]);
    expect(await claimAs(b, 100)).toEqual([]);
    expect(await leasesBy()).toEqual({ [a]: AHEAD - 5 });
    // The second stops (its row goes): alone again, the first claims ahead.
    await markGone(t.db, b);
    expect(await claimAs(a, 100)).toHaveLength(5);
    expect(await leasesBy()).toEqual({ [a]: AHEAD });
  });

  it("below the cap a second worker takes the rest of the cap; two holders never hold more than the cap together", async () => {
    useClock();
    await endpointWith(40);
    const [a, b] = WORKERS;
    await markAlive(t.db, a);
    expect(await claimAs(a, 5)).toHaveLength(5);
    await markAlive(t.db, b);
    const theirs = await claimAs(b, 100);
    expect(theirs).toHaveLength(CAP - 5);
    expect(await claimAs(a, 100)).toEqual([]);
    expect(await claimAs(b, 100)).toEqual([]);
    expect(await leasesBy()).toEqual({ [a]: 5, [b]: CAP - 5 });
    // The second stops, but still holds its leases: the first, alone among the live, does not claim ahead of an
    // endpoint another worker holds — the cap less every lease.
    await markGone(t.db, b);
    expect(await claimAs(a, 100)).toEqual([]);
    await release(theirs.slice(0, 1));
    expect(await claimAs(a, 100)).toHaveLength(1);
    expect(await claimAs(a, 100)).toEqual([]);
    // Its last lease there ended: the first holds the endpoint alone, and claims ahead.
    await release(theirs.slice(1));
    expect(await claimAs(a, 100)).toHaveLength(AHEAD - 6);
    expect(await leasesBy()).toEqual({ [a]: AHEAD });
  });

  it("while another worker is live, every endpoint is claimed up to the cap, by either", async () => {
    useClock();
    await endpointWith(40);
    const [a, b] = WORKERS;
    await markAlive(t.db, a);
    await markAlive(t.db, b);
    const mine = await claimAs(a, 100);
    expect(mine).toHaveLength(CAP);
    expect(await claimAs(a, 100)).toEqual([]);
    expect(await claimAs(b, 100)).toEqual([]);
    await release(mine.slice(0, 3));
    expect(await claimAs(b, 100)).toHaveLength(3);
    expect(await leasesBy()).toEqual({ [a]: CAP - 3, [b]: 3 });
  });

  it("a worker that is not live, or no longer, claims up to the cap; a claim without a worker id claims as before", async () => {
    useClock();
    await endpointWith(40);
    const [a] = WORKERS;
    // No row at all.
    const unlisted = await claimAs(a, 100);
    expect(unlisted).toHaveLength(CAP);
    await release(unlisted);
    // A row older than the liveness window.
    await markAlive(t.db, a);
    clock = new Date(clock.getTime() + WEBHOOK_LIMITS.workerAliveMs + 1);
    const stale = await claimAs(a, 100);
    expect(stale).toHaveLength(CAP);
    await release(stale);
    // Written again: live, ahead.
    await markAlive(t.db, a);
    const live = await claimAs(a, 100);
    expect(live).toHaveLength(AHEAD);
    await release(live);
    // No worker id: no claiming ahead, and tokens without a prefix.
    const plain = await claimDeliveries(t.db, { limit: 100, ahead: AHEAD });
    expect(plain).toHaveLength(CAP);
    for (const c of plain) expect(c.token).not.toContain(".");
  });

  it("retries keep the cap's share: ahead, the endpoint's retries hold at most the retries' room", async () => {
    useClock();
    const { ids } = await endpointWith(40);
    await setDeliveryState(t.db, ids.slice(0, 10), { status: "FAILED", attempts: 1 });
    const [a] = WORKERS;
    await markAlive(t.db, a);
    const claims = await claimAs(a, 100);
    expect(claims.filter((c) => c.attempt > 1)).toHaveLength(RETRY_CAP);
    expect(claims).toHaveLength(AHEAD);
  });
});
