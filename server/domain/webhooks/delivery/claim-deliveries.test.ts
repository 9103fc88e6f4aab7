/**
 * Protects the claim's promises that an audit found broken, on the real database with an injected clock.now:
 * - a lost worker never earns a delivery a tenth attempt: a delivery whose worker died during its ninth
 *   attempt ends EXHAUSTED "worker lost during the last attempt" once the lease expires, instead of being
 *   claimed (and POSTed) again; the lost worker's late write is refused by the token;
 * - every lost attempt is in the attempt log (error, no status, no duration, started when it was claimed), and
 *   none counts toward the endpoint's health (they once left no trace in the log);
 * - a delivery that crashes its worker every time is retried on the retry table (1, 2, 4 … 128 min), not at
 *   every lease expiry (it once looped every 30 s forever), and ends EXHAUSTED after nine attempts;
 * - fairness is per endpoint BEFORE the batch limit: one endpoint with a long queue (or already at its cap)
 *   cannot fill the candidate list and starve other endpoints' newer deliveries;
 * - the migration creates the partial indexes the claim relies on;
 * - (PostgreSQL) the claim statement runs only once the claimers' advisory lock is held, so its in-flight
 *   counts include a claim another worker committed meanwhile — the per-endpoint cap holds across workers.
 *   The claim was once sent before the lock (drizzle's queries start when first awaited) and read stale counts;
 * - (PostgreSQL) a lost lease whose slow worker's failure lands between the claim's snapshot and its row lock is
 *   not taken over before the retry that failure scheduled: the claim once re-checked only "no lease, or an
 *   expired one" on the locked row, and sent the delivery again at once (a trigger holds the claim between the
 *   two, so the test is deterministic).
 */
import postgres from "postgres";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { queryRows } from "@/server/db/client";
import { webhookAttempts, webhookQueue } from "@/server/db/schema";
import { manualClock } from "@/server/test/manual-clock";
import { useTestDb } from "@/server/test/db";
import type { TPlanNode } from "@/server/test/query-plan";
import { CLAIM_LOCK, claimDeliveries, claimStatements, LOST_ATTEMPT_ERROR, SETTLE_LOST_MS, settlingLostLeases, WORKER_LOST_ERROR } from "./claim-deliveries";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { recordAttemptOutcome } from "./record-attempt-outcome";
import { scheduledDelayMs } from "./retry-schedule";
import { deliveryRow, endpointRow, raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { claimPlan, everydayClaimIds, subtree } from "@/server/domain/webhooks/test-support/claim-plans";

const t = useTestDb();
const clock = manualClock("2030-01-01T00:00:00.000Z");
const URL_A = "https://93.184.216.34/a";
const okResult = { ok: true, status: 200, body: "", error: null, durationMs: 1, remoteAddress: "93.184.216.34", retryAfterMs: null } as const;
const LEASE = WEBHOOK_LIMITS.leaseMs;
const CAP = WEBHOOK_LIMITS.perEndpointCap;

describe("a worker lost mid-attempt", () => {
  it("on the ninth attempt: EXHAUSTED after the lease, never a tenth claim; the lost worker's write is refused", async () => {
    clock.use();
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    // Eight failed attempts behind it; the ninth is due now.
    await setDeliveryState(t.db, [id!], { status: "FAILED", attempts: 8 });
    const [ninth] = await claimDeliveries(t.db, { limit: 10 });
    expect(ninth).toMatchObject({ id, attempt: 9 });

    // The worker dies. While the lease runs nothing happens; after it, the delivery is over.
    clock.advance(LEASE - 1);
    expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
    expect((await deliveryRow(t.db, id!)).status).toBe("FAILED");
    clock.advance(2);
    expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
    expect(await deliveryRow(t.db, id!)).toMatchObject({
      status: "EXHAUSTED",
      attempts: 9,
      lastError: WORKER_LOST_ERROR,
      claimToken: null,
      lockedUntil: null,
      completedAt: clock.now,
    });
    clock.advance(24 * 3600_000);
    expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);

    const late = await recordAttemptOutcome(t.db, ninth!, {
      ok: true,
      status: 200,
      body: "late",
      error: null,
      durationMs: 1,
      remoteAddress: "93.184.216.34",
      retryAfterMs: null,
      startedAt: clock.now,
    });
    expect(late).toEqual({ kind: "stale" });
    expect((await deliveryRow(t.db, id!)).status).toBe("EXHAUSTED");
    // The lost ninth attempt is logged once (not by the late write), and is not held against the receiver.
    const logged = await t.db.select().from(webhookAttempts);
    expect(logged).toEqual([
      expect.objectContaining({
        deliveryId: id,
        attemptNumber: 9,
        error: LOST_ATTEMPT_ERROR,
        responseStatus: null,
        durationMs: null,
        responseBody: null,
        startedAt: new Date("2030-01-01T00:00:00.000Z"),
      }),
    ]);
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(0);
  });

  it("every time: retried on the retry table, not at each lease expiry, and EXHAUSTED after nine", async () => {
    clock.use();
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    const claimedAt: number[] = [];
    for (let attempt = 1; attempt <= WEBHOOK_LIMITS.maxAttempts; attempt++) {
      const claims = await claimDeliveries(t.db, { limit: 10 });
      expect(claims.map((c) => [c.id, c.attempt])).toEqual([[id, attempt]]);
      claimedAt.push(clock.now.getTime());
      // The worker crashes: no outcome is ever written. At the lease's expiry the delivery is not due yet.
      clock.advance(LEASE + 1);
      expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
      if (attempt < WEBHOOK_LIMITS.maxAttempts) {
        // Due exactly when the table says, counted from the lost attempt — not a millisecond earlier.
        clock.advance(scheduledDelayMs(attempt) - LEASE - 2);
        expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
        clock.advance(1);
      }
    }
    const gaps = claimedAt.slice(1).map((at, i) => (at - claimedAt[i]!) / 60_000);
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "EXHAUSTED", attempts: 9, lastError: WORKER_LOST_ERROR });
    clock.advance(24 * 3600_000);
    expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
    // Nine lost attempts, nine rows in the log, each started when it was claimed; the endpoint's health untouched.
    const logged = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id!)).orderBy(webhookAttempts.attemptNumber);
    expect(logged.map((a) => [a.attemptNumber, a.startedAt.getTime(), a.error, a.responseStatus])).toEqual(
      claimedAt.map((at, i) => [i + 1, at, LOST_ATTEMPT_ERROR, null]),
    );
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(0);
  });
});

describe("fairness across endpoints", () => {
  it("claims another endpoint's newer deliveries although one endpoint has 60 older ones due", async () => {
    clock.use();
    const { actor: ctxA, endpoint: a } = await setupEndpoint(t.db, URL_A, { name: "A" });
    const { actor: ctxB, endpoint: b } = await setupEndpoint(t.db, URL_A, { name: "B" });
    for (let i = 0; i < 60; i++) await raisePackageSent(t.db, ctxA, `a_${i}`);
    clock.advance(1000);
    const bIds = [];
    for (let i = 0; i < 3; i++) bIds.push(...(await raisePackageSent(t.db, ctxB, `b_${i}`)).deliveryIds);

    // A batch with room for A's cap and B's three: B's are in it although A alone has 60 older ones.
    const claims = await claimDeliveries(t.db, { limit: CAP + 3 });
    expect(
      claims
        .filter((c) => c.endpointId === b.id)
        .map((c) => c.id)
        .sort(),
    ).toEqual([...bIds].sort());
    expect(claims.filter((c) => c.endpointId === a.id)).toHaveLength(CAP);
    // Handed out oldest first: A's (older) before B's.
    expect(claims.map((c) => c.endpointId)).toEqual([...Array<string>(CAP).fill(a.id), b.id, b.id, b.id]);
  });

  it("claims another endpoint's deliveries while the endpoint with the long queue is at its cap", async () => {
    clock.use();
    const { actor: ctxA, endpoint: a } = await setupEndpoint(t.db, URL_A, { name: "A" });
    const { actor: ctxB, endpoint: b } = await setupEndpoint(t.db, URL_A, { name: "B" });
    for (let i = 0; i < 60; i++) await raisePackageSent(t.db, ctxA, `a_${i}`);
    const first = await claimDeliveries(t.db, { limit: CAP + 6 });
    expect(first.map((c) => c.endpointId)).toEqual(Array<string>(CAP).fill(a.id));
    clock.advance(1000);
    for (let i = 0; i < 3; i++) await raisePackageSent(t.db, ctxB, `b_${i}`);
    const second = await claimDeliveries(t.db, { limit: 2 });
    expect(second.map((c) => c.endpointId)).toEqual([b.id, b.id]);
  });
});

describe("the per-endpoint cap across claims", () => {
  it("counts the leases of every earlier claim, the newest included (each claim raises the endpoint's mark)", async () => {
    clock.use();
    const { actor } = await setupEndpoint(t.db, URL_A);
    const opts = { limit: 10, perEndpointCap: 2, firstAttemptReserve: 1 };
    const [first] = (await raisePackageSent(t.db, actor, "p1")).deliveryIds;
    expect((await claimDeliveries(t.db, opts)).map((c) => c.id)).toEqual([first]);
    clock.advance(1000);
    const [second] = (await raisePackageSent(t.db, actor, "p2")).deliveryIds;
    clock.advance(1000);
    await raisePackageSent(t.db, actor, "p3");
    // Room for one: the first is in flight. Then none: the second, leased by the claim before, counts too.
    expect((await claimDeliveries(t.db, opts)).map((c) => c.id)).toEqual([second]);
    expect(await claimDeliveries(t.db, opts)).toEqual([]);
  });
});

describe("the claim's cost", () => {
  it("looks only at endpoints with queued deliveries, not at every endpoint (read from its plan)", async () => {
    clock.use();
    const { actor: busy } = await setupEndpoint(t.db, URL_A, { name: "Busy" });
    for (let i = 0; i < 3; i++) await raisePackageSent(t.db, busy, `b_${i}`);
    // An endpoint whose only queued delivery is a retry due in an hour: queued, though nothing is due.
    const { actor: later, endpoint: laterEndpoint } = await setupEndpoint(t.db, URL_A, { name: "Later" });
    await raisePackageSent(t.db, later, "l_0");
    await setDeliveryState(t.db, { endpointId: laterEndpoint.id }, { status: "FAILED", attempts: 1, nextAttemptAt: new Date(clock.now.getTime() + 3600_000) });
    // Forty endpoints with nothing queued; one of them has a finished delivery.
    const { actor: idle, endpoint: finishedEndpoint } = await setupEndpoint(t.db, URL_A, { name: "Idle" });
    for (let i = 1; i < 40; i++) await createEndpoint(t.db, idle, { url: `${URL_A}/${i}`, events: ["PACKAGE_COMPLETED"] });
    await raisePackageSent(t.db, idle, "done");
    await setDeliveryState(t.db, { endpointId: finishedEndpoint.id }, { status: "DELIVERED" });

    const plan = await claimPlan(t.db, claimStatements({ limit: 10 }, clock.now).claim);
    // The in-flight count is taken once per endpoint looked at: the two with queued deliveries, not all 42.
    // (the lateral count is the inner side of the loop over endpoints, in the everyday claim's `room`, where its
    // `leases` is inlined: one run per endpoint looked at)
    const room = subtree(plan, (n) => n["Subplan Name"] === "CTE room");
    const perEndpoint = room?.Plans?.find((p) => p["Parent Relationship"] === "Inner");
    expect(perEndpoint?.["Actual Loops"]).toBe(2);
    expect(await claimDeliveries(t.db, { limit: 10 })).toHaveLength(3);
  });
});

describe("the everyday claim and the claim that settles lost leases", () => {
  const modifies = (node: TPlanNode): string[] => [
    ...(node["Node Type"] === "ModifyTable" ? [`${node.Operation} on ${node["Relation Name"]}`] : []),
    ...(node.Plans ?? []).flatMap(modifies),
  ];

  it("the everyday claim writes only leases and marks; the other also ends, dequeues and logs lost attempts", async () => {
    clock.use();
    const { actor } = await setupEndpoint(t.db, URL_A);
    await raisePackageSent(t.db, actor);
    expect(modifies(await claimPlan(t.db, claimStatements({ limit: 10 }, clock.now).claim)).sort()).toEqual([
      "Insert on webhook_flights",
      "Update on webhook_queue",
    ]);
    expect(modifies(await claimPlan(t.db, claimStatements({ limit: 10 }, clock.now, { lostLeases: true }).claim)).sort()).toEqual([
      "Delete on webhook_queue",
      "Insert on webhook_attempts",
      "Insert on webhook_flights",
      "Update on webhook_deliveries",
      "Update on webhook_queue",
    ]);
  });

  it("finding a lost lease, the everyday claim claims nothing and says so; claimDeliveries then settles it", async () => {
    clock.use();
    const { actor } = await setupEndpoint(t.db, URL_A);
    const [ninthId] = (await raisePackageSent(t.db, actor, "p_ninth")).deliveryIds;
    await setDeliveryState(t.db, [ninthId!], { status: "FAILED", attempts: 8 });
    const [ninth] = await claimDeliveries(t.db, { limit: 10 });
    expect(ninth).toMatchObject({ id: ninthId, attempt: 9 });
    const [waiting] = (await raisePackageSent(t.db, actor, "p_waiting")).deliveryIds;
    clock.advance(LEASE + 1);

    expect(await everydayClaimIds(t.db, clock.now, { limit: 10 })).toBeNull();
    // Nothing written: the lost ninth attempt is still leased, the waiting delivery still unclaimed, nothing logged.
    expect(await deliveryRow(t.db, ninthId!)).toMatchObject({ status: "FAILED", claimToken: ninth!.token });
    expect(await deliveryRow(t.db, waiting!)).toMatchObject({ status: "PENDING", claimToken: null });
    expect(await t.db.select().from(webhookAttempts)).toEqual([]);

    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => [c.id, c.attempt])).toEqual([[waiting, 1]]);
    expect(await deliveryRow(t.db, ninthId!)).toMatchObject({ status: "EXHAUSTED", attempts: 9, lastError: WORKER_LOST_ERROR, claimToken: null });
    expect((await t.db.select().from(webhookAttempts)).map((a) => [a.deliveryId, a.attemptNumber, a.error])).toEqual([[ninthId, 9, LOST_ATTEMPT_ERROR]]);
  });
});

describe("the everyday claim and lost leases it need not settle yet", () => {
  it("claims on while a lost lease's retry is not due, or has no retry room; then leaves it to the other claim", async () => {
    clock.use();
    const { actor } = await setupEndpoint(t.db, URL_A);
    const [lost] = (await raisePackageSent(t.db, actor, "p_lost")).deliveryIds;
    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => c.id)).toEqual([lost]);
    // The lease is over, the retry due a minute after the claim: not yet.
    clock.advance(LEASE + 1_000);
    const [w] = (await raisePackageSent(t.db, actor, "p_w")).deliveryIds;
    expect(await everydayClaimIds(t.db, clock.now, { limit: 10 })).toEqual([w]);
    // A retry in flight (a long lease), then the lost lease's retry is due, but the endpoint allows one retry at once.
    const [r] = (await raisePackageSent(t.db, actor, "p_r")).deliveryIds;
    await setDeliveryState(t.db, [r!], { status: "FAILED", attempts: 1, nextAttemptAt: clock.now });
    expect((await claimDeliveries(t.db, { limit: 10, leaseMs: 3600_000 })).map((c) => [c.id, c.attempt])).toEqual([[r, 2]]);
    clock.advance(scheduledDelayMs(1) - LEASE);
    const [x] = (await raisePackageSent(t.db, actor, "p_x")).deliveryIds;
    expect(await everydayClaimIds(t.db, clock.now, { limit: 10, perEndpointCap: CAP, firstAttemptReserve: CAP - 1 })).toEqual([x]);
    // With retry room, the everyday claim hands it over; the claim that settles lost leases takes it over.
    expect(await everydayClaimIds(t.db, clock.now, { limit: 10 })).toBeNull();
    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => [c.id, c.attempt])).toEqual([[lost, 2]]);
  });

  it("a due lost lease waiting behind older deliveries: claims them, and keeps the lost-lease steps for a second", async () => {
    clock.use();
    const { actor } = await setupEndpoint(t.db, URL_A);
    const [lost] = (await raisePackageSent(t.db, actor, "p_lost")).deliveryIds;
    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => c.id)).toEqual([lost]);
    // The endpoint's room's worth of deliveries, due before the lost lease's retry (a minute after its claim).
    clock.advance(1_000);
    const older: string[] = [];
    for (let i = 0; i < CAP; i++) older.push(...(await raisePackageSent(t.db, actor, `p_${i}`)).deliveryIds);
    clock.advance(scheduledDelayMs(1));
    // The everyday claim hands over; the claim with the lost-lease steps takes the older ones (the lost lease's
    // turn has not come), and the claims of the next second are built with those steps.
    expect(await everydayClaimIds(t.db, clock.now, { limit: 10 })).toBeNull();
    const claims = await claimDeliveries(t.db, { limit: 10 });
    expect(claims.map((c) => c.id).sort()).toEqual([...older].sort());
    expect(settlingLostLeases(clock.now)).toBe(true);
    clock.advance(SETTLE_LOST_MS - 1);
    expect(settlingLostLeases(clock.now)).toBe(true);
    clock.advance(1);
    expect(settlingLostLeases(clock.now)).toBe(false);
    // Their outcomes free the room: now the lost lease is next.
    for (const c of claims) await recordAttemptOutcome(t.db, c, { ...okResult, startedAt: clock.now });
    expect((await claimDeliveries(t.db, { limit: 10 })).map((c) => [c.id, c.attempt])).toEqual([[lost, 2]]);
  });
});

describe("the claim's indexes", () => {
  it("are the queue's per-endpoint due indexes; the lease columns and the record's attempt columns are in no index", async () => {
    const rows = await queryRows<{ tablename: string; indexname: string; indexdef: string }>(
      t.db,
      sql`select tablename, indexname, indexdef from pg_indexes
          where tablename in ('webhook_deliveries', 'webhook_queue', 'webhook_flights') order by indexname`,
    );
    const byName = new Map(rows.map((r) => [r.indexname, r.indexdef]));
    expect(byName.get("webhook_queue_first_due_idx")).toMatch(/\(endpoint_id, next_attempt_at\) WHERE .*attempts = 0/);
    expect(byName.get("webhook_queue_retry_due_idx")).toMatch(/\(endpoint_id, next_attempt_at\) WHERE .*attempts > 0/);
    // A claim writes the lease (token, attempt, claimed at, lease end) into the queue row: in no index, so HOT.
    const queue = rows.filter((r) => r.tablename === "webhook_queue");
    expect(queue.map((r) => r.indexname)).toEqual(["webhook_queue_first_due_idx", "webhook_queue_pkey", "webhook_queue_retry_due_idx"]);
    for (const def of queue.map((r) => r.indexdef)) expect(def).not.toMatch(/claim_token|lease_attempt|claimed_at|locked_until/);
    expect(rows.filter((r) => r.tablename === "webhook_flights").map((r) => r.indexname)).toEqual(["webhook_flights_pkey"]);
    // The record's indexes hold columns no outcome changes (its id, endpoint, event, creation), so its updates stay HOT.
    const record = rows.filter((r) => r.tablename === "webhook_deliveries");
    expect(record.map((r) => r.indexname)).toEqual([
      "webhook_deliveries_created_idx",
      "webhook_deliveries_endpoint_idx",
      "webhook_deliveries_event_idx",
      "webhook_deliveries_pkey",
    ]);
    for (const def of record.map((r) => r.indexdef)) expect(def).not.toMatch(/status|attempts|claim_token|locked_until|next_attempt_at|last_/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("claimers serialised by the advisory lock (PostgreSQL)", () => {
  it("counts the in-flight rows another claimer committed while this claim waited for the lock", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, URL_A);
    const ids: string[] = [];
    for (let i = 0; i < 2 * CAP; i++) ids.push(...(await raisePackageSent(t.db, actor, `p_${i}`)).deliveryIds);
    const other = postgres(t.url, { max: 2, onnotice: () => {} });
    try {
      // Another worker holds the claim lock and claims the CAP NEWEST deliveries (the endpoint's whole cap).
      const reserved = await other.reserve();
      await reserved`begin`;
      await reserved`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`;
      await reserved`update webhook_queue set claim_token = 'other-worker', lease_attempt = 1, claimed_at = now(),
                       locked_until = now() + interval '30 seconds'
                     where delivery_id = any(${ids.slice(CAP)})`;
      await reserved`insert into webhook_flights (endpoint_id, leased_through)
                     select ${endpoint.id}, max(next_attempt_at) from webhook_queue where delivery_id = any(${ids.slice(CAP)})`;
      // Our claim starts meanwhile and must wait for the lock.
      const claiming = claimDeliveries(t.db, { limit: 2 * CAP });
      await vi.waitFor(
        async () => {
          const [waiting] = await other<{ n: number }[]>`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`;
          expect(waiting!.n, "our claim waits for the claim lock").toBeGreaterThan(0);
        },
        { timeout: 5_000, interval: 5 },
      );
      await reserved`commit`;
      reserved.release();
      expect(await claiming).toEqual([]);
      const inFlight = await t.db
        .select({ id: webhookQueue.deliveryId })
        .from(webhookQueue)
        .where(and(eq(webhookQueue.endpointId, endpoint.id), inArray(webhookQueue.deliveryId, ids), isNotNull(webhookQueue.claimToken)));
      expect(inFlight).toHaveLength(CAP);
    } finally {
      await other.end();
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("a lost lease whose late outcome lands during the claim (PostgreSQL)", () => {
  it("is not taken over early: the claim re-checks the due time on the row it locks", async () => {
    clock.use();
    const t0 = clock.now.getTime();
    const { actor } = await setupEndpoint(t.db, URL_A);
    const [slow] = (await raisePackageSent(t.db, actor, "p_slow")).deliveryIds;
    const [stale] = await claimDeliveries(t.db, { limit: 10 });
    expect(stale).toMatchObject({ id: slow, attempt: 1 });
    clock.advance(1000);
    const [first] = (await raisePackageSent(t.db, actor, "p_first")).deliveryIds;
    // The slow worker's lease expired and its retry is due (1 min after it was claimed): the next claim reads it
    // as lost, due after `first` (due at t0 + 1 s).
    clock.advance(60_000);
    const other = postgres(t.url, { max: 2, onnotice: () => {} });
    const GATE = 4_201_778;
    try {
      // The claim locks its chosen rows one by one, oldest first, leasing each as it goes. A trigger stops it on
      // `first`'s lease — after its snapshot, before it locks `slow` — until the slow worker's outcome is written.
      await other.unsafe(`create or replace function test_gate() returns trigger language plpgsql as $$
        begin
          if new.delivery_id = '${first}' and new.claim_token is not null then
            perform pg_advisory_lock(${GATE}); perform pg_advisory_unlock(${GATE});
          end if;
          return new;
        end $$`);
      await other.unsafe(`create trigger test_gate before update on webhook_queue for each row execute function test_gate()`);
      const held = await other.reserve();
      await held`select pg_advisory_lock(${GATE}::bigint)`;
      const claiming = claimDeliveries(t.db, { limit: 10 });
      await vi.waitFor(
        async () => {
          const [waiting] = await other<
            { n: number }[]
          >`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = ${GATE} and not granted`;
          expect(waiting!.n, "the claim waits at the gate").toBeGreaterThan(0);
        },
        { timeout: 5_000, interval: 5 },
      );
      // The slow worker's answer arrives: a 500, fenced by its (still unchanged) token; the retry is due in 1 min.
      const late = await recordAttemptOutcome(
        t.db,
        stale!,
        { ok: false, status: 500, body: "", error: "HTTP 500", durationMs: 1, remoteAddress: "93.184.216.34", retryAfterMs: null, startedAt: clock.now },
        { random: () => 0.5 },
      );
      expect(late).toMatchObject({ kind: "recorded", status: "FAILED" });
      const retryAt = (await deliveryRow(t.db, slow!)).nextAttemptAt;
      expect(retryAt.getTime()).toBeGreaterThan(clock.now.getTime());
      await held`select pg_advisory_unlock(${GATE}::bigint)`;
      held.release();

      expect((await claiming).map((c) => c.id)).toEqual([first]);
      expect(await deliveryRow(t.db, slow!)).toMatchObject({ status: "FAILED", attempts: 1, claimToken: null, nextAttemptAt: retryAt });
      expect(clock.now.getTime() - t0).toBe(61_000);
    } finally {
      await other.unsafe(`drop trigger if exists test_gate on webhook_queue`);
      await other.end();
    }
  });
});
