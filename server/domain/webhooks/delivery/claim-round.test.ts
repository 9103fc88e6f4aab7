/**
 * Endpoints take turns (claim-deliveries.ts, "endpoints take turns"): each claim looks at the next `window`
 * endpoints with queued deliveries after the last one the previous claim looked at, so none waits more than a
 * round and a claim's cost follows the window, not the number of endpoints with work; a hand-over keeps the round.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { manualClock } from "@/server/test/manual-clock";
import { useTestDb } from "@/server/test/db";
import { claimDeliveries, claimRound, claimStatements, setClaimRound, WORKER_LOST_ERROR } from "./claim-deliveries";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { deliveryRow, raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { claimPlan, everydayClaimIds, subtree } from "@/server/domain/webhooks/test-support/claim-plans";

const t = useTestDb();
const clock = manualClock("2030-01-01T00:00:00.000Z");
const URL_A = "https://93.184.216.34/a";
const LEASE = WEBHOOK_LIMITS.leaseMs;
const CAP = WEBHOOK_LIMITS.perEndpointCap;

describe("the round of endpoints", () => {
  /** One workspace with `n` endpoints, each with `each` deliveries due; their ids in the round's (id) order. */
  async function endpointsWithWork(n: number, each: number): Promise<{ ids: string[]; actor: Awaited<ReturnType<typeof setupEndpoint>>["actor"] }> {
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const ids = [endpoint.id];
    for (let i = 1; i < n; i++) ids.push((await createEndpoint(t.db, actor, { url: `${URL_A}/${i}` })).id);
    for (let i = 0; i < each; i++) await raisePackageSent(t.db, actor, `p_${i}`);
    return { ids: ids.sort(), actor };
  }
  beforeEach(() => setClaimRound());
  afterEach(() => setClaimRound());

  it("each claim looks at the next `window` endpoints with work after the last one looked at, wrapping around: none waits more than a round", async () => {
    clock.use();
    const { ids } = await endpointsWithWork(7, 2);
    const opts = { limit: 100, window: 3 };
    const rounds: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const claims = await claimDeliveries(t.db, opts);
      rounds.push([...new Set(claims.map((c) => c.endpointId))].sort());
      expect(claims).toHaveLength(rounds.at(-1)!.length * 2); // every due delivery of each endpoint looked at
    }
    // Turns of three in id order: 1-3, 4-6, then 7 alone — the window that reaches the end ends the round — and
    // 1-3 again, whose deliveries are all leased (still queued: looked at, nothing to take).
    expect(rounds).toEqual([ids.slice(0, 3), ids.slice(3, 6), [ids[6]!], []]);
    expect(claimRound()).toBe(ids[2]);
    // A window that ends exactly at the last endpoint ends the round too: the next claim starts from the first.
    setClaimRound(ids[3]);
    await claimDeliveries(t.db, opts); // 5-7
    expect(claimRound()).toBe("");
  });

  it("a claim's cost follows the window, not the endpoints with work: the in-flight count runs once per endpoint in the window (plan)", async () => {
    clock.use();
    await endpointsWithWork(20, 1);
    const plan = await claimPlan(t.db, claimStatements({ limit: 10, window: 4 }, clock.now).claim);
    const room = subtree(plan, (n) => n["Subplan Name"] === "CTE room");
    expect(room?.Plans?.find((p) => p["Parent Relationship"] === "Inner")?.["Actual Loops"]).toBe(4);
    const wide = await claimPlan(t.db, claimStatements({ limit: 10, window: 64 }, clock.now).claim);
    expect(subtree(wide, (n) => n["Subplan Name"] === "CTE room")?.Plans?.find((p) => p["Parent Relationship"] === "Inner")?.["Actual Loops"]).toBe(20);
  });

  it("an endpoint's long queue and another's full cap do not hold the round: each turn moves on", async () => {
    clock.use();
    const { ids } = await endpointsWithWork(4, CAP + 2);
    // Window of two: the first two endpoints, each up to its cap; then the other two, although the first two still have work.
    const first = await claimDeliveries(t.db, { limit: 100, window: 2 });
    expect([...new Set(first.map((c) => c.endpointId))].sort()).toEqual(ids.slice(0, 2));
    expect(first).toHaveLength(2 * CAP);
    const second = await claimDeliveries(t.db, { limit: 100, window: 2 });
    expect([...new Set(second.map((c) => c.endpointId))].sort()).toEqual(ids.slice(2, 4));
    // Back to the first two: at their cap (their leases are in flight), so nothing from them; the round moves on.
    expect(await claimDeliveries(t.db, { limit: 100, window: 2 })).toEqual([]);
    expect(claimRound()).toBe(ids[1]);
  });

  it("the everyday claim that hands over leaves the round where it was, so the claim that settles looks at the same endpoints", async () => {
    clock.use();
    const { actor, endpoint: a } = await setupEndpoint(t.db, URL_A);
    const [ninthId] = (await raisePackageSent(t.db, actor, "p_ninth")).deliveryIds;
    await setDeliveryState(t.db, [ninthId!], { status: "FAILED", attempts: 8 });
    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => c.attempt)).toEqual([9]);
    expect(claimRound()).toBe(""); // one endpoint with work, fewer than the window: the round stays at the start
    await createEndpoint(t.db, actor, { url: `${URL_A}/later` }); // its id sorts after a's
    const waiting = (await raisePackageSent(t.db, actor, "p_waiting")).deliveryIds;
    clock.advance(LEASE + 1);
    // A window of one endpoint, a: the everyday claim finds a's lost ninth attempt and hands over.
    expect(await everydayClaimIds(t.db, clock.now, { limit: 10, window: 1 })).toBeNull();
    expect(claimRound()).toBe("");
    // The claim that settles looks at a too: the ninth ends EXHAUSTED, a's waiting delivery is claimed, and the round moves on.
    const claimed = await claimDeliveries(t.db, { limit: 10, window: 1 });
    expect(claimed.map((c) => c.endpointId)).toEqual([a.id]);
    expect(waiting).toContain(claimed[0]!.id);
    expect(await deliveryRow(t.db, ninthId!)).toMatchObject({ status: "EXHAUSTED", lastError: WORKER_LOST_ERROR });
    expect(claimRound()).toBe(a.id);
  });
});
