/**
 * Protects the worker's group-commit path, which carries nearly every outcome under load: a batch mixing
 * successes and failures writes each exactly as recordAttemptOutcome would (DELIVERED / FAILED with a retry,
 * attempts logged, endpoint counter), and the claim token still fences every row inside a batch — a row
 * taken over by another worker is reported stale and left untouched while the rest of the batch is written.
 * Also the worker's next claim sent with a batch of outcomes: in the same transaction, after the outcomes (the
 * endpoint's cap counts the settled leases free), handed to the worker before the outcomes are resolved, and
 * when that transaction fails, nothing of it written: no claims, the outcomes written one by one. When the claim
 * hands over to the claim that settles lost leases and that one fails, the worker gets no claims and the failure
 * is logged; the outcomes stand and the lost lease waits for the next claim.
 */
import { count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookQueue } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { captureLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { claimDeliveries, LOST_ATTEMPT_ERROR, SETTLE_LOST_MS, type TClaim } from "./claim-deliveries";
import { createOutcomeWriter } from "./outcome-writer";
import type { TAttemptResult } from "./record-attempt-outcome";
import { scheduledDelayMs } from "./retry-schedule";
import { recordDeliveredOutcomes } from "./record-delivered-outcomes";
import { deliveryRow, endpointRow, raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
const at = new Date("2030-06-01T00:00:00.000Z");
const ok = (): TAttemptResult => ({
  ok: true,
  status: 204,
  body: "",
  error: null,
  durationMs: 3,
  remoteAddress: "93.184.216.34",
  retryAfterMs: null,
  startedAt: at,
});
const fail = (): TAttemptResult => ({
  ok: false,
  status: 500,
  body: "boom",
  error: "HTTP 500",
  durationMs: 4,
  remoteAddress: "93.184.216.34",
  retryAfterMs: null,
  startedAt: at,
});

async function claimed(n: number): Promise<TClaim[]> {
  setClock(() => at);
  const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/x");
  for (let i = 0; i < n; i++) await raisePackageSent(t.db, actor, `pkg_${i}`);
  return claimDeliveries(t.db, { limit: n, perEndpointCap: n, firstAttemptReserve: 0 });
}

describe("group commit of outcomes", () => {
  it("writes a mixed batch as the single-row path would", async () => {
    const claims = await claimed(4);
    const writer = createOutcomeWriter(t.db, { random: () => 0 });
    const outcomes = await Promise.all([
      writer.record(claims[0]!, ok()),
      writer.record(claims[1]!, fail()),
      writer.record(claims[2]!, ok()),
      writer.record(claims[3]!, fail()),
    ]);
    expect(outcomes.map((o) => ("status" in o ? o.status : o.kind))).toEqual(["DELIVERED", "FAILED", "DELIVERED", "FAILED"]);
    expect(await deliveryRow(t.db, claims[0]!.id)).toMatchObject({ status: "DELIVERED", claimToken: null, lastResponseStatus: 204, completedAt: at });
    const failed = await deliveryRow(t.db, claims[1]!.id);
    expect(failed).toMatchObject({ status: "FAILED", claimToken: null, lastError: "HTTP 500" });
    expect(failed.nextAttemptAt.getTime() - at.getTime()).toBe(60_000);
    expect((await t.db.select({ n: count() }).from(webhookAttempts))[0]!.n).toBe(4);
    const [attempt] = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, claims[2]!.id));
    expect(attempt).toMatchObject({ attemptNumber: 1, responseStatus: 204, remoteAddress: "93.184.216.34" });
    // Successes of a batch are applied before its failures: the counter ends at the batch's two failures.
    expect((await endpointRow(t.db, claims[0]!.endpointId)).consecutiveFailures).toBe(2);
  });

  it("fences each row of a multi-row success by its own claim token", async () => {
    const claims = await claimed(3);
    // Another worker took the second delivery over: its token changed.
    await t.db.update(webhookQueue).set({ claimToken: "someone-else", leaseAttempt: 2 }).where(eq(webhookQueue.deliveryId, claims[1]!.id));
    const outcomes = await recordDeliveredOutcomes(
      t.db,
      claims.map((claim) => ({ claim, result: ok() })),
    );
    expect(outcomes.map((o) => o.kind)).toEqual(["recorded", "stale", "recorded"]);
    expect(await deliveryRow(t.db, claims[1]!.id)).toMatchObject({ status: "PENDING", claimToken: "someone-else", attempts: 2 });
    expect(await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, claims[1]!.id))).toEqual([]);
    expect((await deliveryRow(t.db, claims[2]!.id)).status).toBe("DELIVERED");
  });

  it("resets the failure counter on a batched success", async () => {
    const claims = await claimed(2);
    const writer = createOutcomeWriter(t.db, { random: () => 0 });
    await writer.record(claims[0]!, fail());
    expect((await endpointRow(t.db, claims[0]!.endpointId)).consecutiveFailures).toBe(1);
    await recordDeliveredOutcomes(t.db, [{ claim: claims[1]!, result: ok() }]);
    expect((await endpointRow(t.db, claims[0]!.endpointId)).consecutiveFailures).toBe(0);
  });

  // Protects the worker's group commit under load: outcomes of one wave of attempts (answered within a
  // millisecond or two of each other) are written in ONE statement, not "the first alone, then the rest"; and
  // the wait is bounded, so an outcome is written even when the other attempts never answer.
  it("waits for the rest of a wave (bounded) and writes it in one statement", async () => {
    const claims = await claimed(3);
    let tick = at.getTime();
    setClock(() => new Date((tick += 1))); // every statement gets its own timestamp
    let outstanding = 3;
    const writer = createOutcomeWriter(t.db, { random: () => 0, outstanding: () => outstanding, maxWaitMs: 10_000 });
    const written = claims.map((claim) => {
      outstanding -= 1;
      return writer.record(claim, ok());
    });
    await Promise.all(written);
    const stamps = await t.db.select({ createdAt: webhookAttempts.createdAt }).from(webhookAttempts);
    expect(stamps).toHaveLength(3);
    expect(new Set(stamps.map((r) => r.createdAt.getTime())).size).toBe(1);

    const more = await claimed(1);
    const stuck = createOutcomeWriter(t.db, { outstanding: () => 5, maxWaitMs: 0 });
    expect(await stuck.record(more[0]!, ok())).toMatchObject({ kind: "recorded", status: "DELIVERED" });
  });
});

describe("the next claim sent with a batch of outcomes", () => {
  // An endpoint with four due deliveries and a cap of two in flight, both taken: nothing more can be claimed
  // until an outcome ends a lease.
  const capped = { perEndpointCap: 2, firstAttemptReserve: 0 };
  async function capFull() {
    setClock(() => at);
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(...(await raisePackageSent(t.db, actor, `pkg_${i}`)).deliveryIds);
    const claims = await claimDeliveries(t.db, { limit: 4, ...capped });
    expect(claims.map((c) => c.id)).toEqual(ids.slice(0, 2));
    expect(await claimDeliveries(t.db, { limit: 4, ...capped })).toEqual([]);
    return { claims, waiting: ids.slice(2) };
  }

  it("claims in the same transaction, after the outcomes, and hands the claims over before the outcomes", async () => {
    const { claims, waiting } = await capFull();
    const order: string[] = [];
    const asked: number[] = [];
    const launched: TClaim[] = [];
    const writer = createOutcomeWriter(t.db, {
      outstanding: () => 1, // a wave: the two outcomes are written together
      claimNext: {
        options: capped,
        room: (settling) => (asked.push(settling), 4),
        launch: (c) => (order.push("launch"), launched.push(...c)),
      },
    });
    const outcomes = await Promise.all(claims.map((c) => writer.record(c, ok()).then((o) => (order.push("outcome"), o))));

    expect(outcomes.map((o) => ("status" in o ? o.status : o.kind))).toEqual(["DELIVERED", "DELIVERED"]);
    expect(asked).toEqual([2]);
    expect(order).toEqual(["launch", "outcome", "outcome"]);
    // The cap let two more through: the claim saw the two leases the outcomes ended.
    expect(launched.map((c) => c.id)).toEqual(waiting);
    for (const c of launched) expect(await deliveryRow(t.db, c.id)).toMatchObject({ status: "PENDING", claimToken: c.token, attempts: 1 });
    for (const c of claims) expect(await deliveryRow(t.db, c.id)).toMatchObject({ status: "DELIVERED", claimToken: null, attempts: 1 });
  });

  it("travels with a batch of successes and failures too, after all of its outcomes", async () => {
    const { claims, waiting } = await capFull();
    const launched: TClaim[] = [];
    const writer = createOutcomeWriter(t.db, {
      random: () => 0,
      outstanding: () => 1,
      claimNext: { options: capped, room: () => 4, launch: (c) => launched.push(...c) },
    });
    const outcomes = await Promise.all([writer.record(claims[0]!, ok()), writer.record(claims[1]!, fail())]);
    expect(outcomes.map((o) => ("status" in o ? o.status : o.kind))).toEqual(["DELIVERED", "FAILED"]);
    // Both leases ended before the claim ran (the failure's retry is due in a minute): two more let through.
    expect(launched.map((c) => c.id)).toEqual(waiting);
    expect(await deliveryRow(t.db, claims[1]!.id)).toMatchObject({ status: "FAILED", claimToken: null, attempts: 1, lastError: "HTTP 500" });
    expect((await endpointRow(t.db, claims[0]!.endpointId)).consecutiveFailures).toBe(1);
  });

  /**
   * Three claimed at once; the worker of the third died. `afterMs` later (a lease and its retry, at least), the
   * other two's outcomes are written with the next claim: `writeOutcomes()` does it and returns their statuses.
   */
  async function lostLeaseWave(afterMs: number) {
    const claims = await claimed(3);
    setClock(() => new Date(at.getTime() + afterMs));
    const launched: TClaim[][] = [];
    const writer = createOutcomeWriter(t.db, {
      outstanding: () => 1,
      claimNext: { options: { perEndpointCap: 3, firstAttemptReserve: 0 }, room: () => 4, launch: (c) => launched.push(c) },
    });
    const answered = claims.slice(0, 2);
    const writeOutcomes = async () => (await Promise.all(answered.map((c) => writer.record(c, ok())))).map((o) => ("status" in o ? o.status : o.kind));
    return { answered, lostClaim: claims[2]!, launched, writeOutcomes };
  }
  const leaseAndRetry = WEBHOOK_LIMITS.leaseMs + scheduledDelayMs(1);

  it("when the claim finds a lost lease, hands over what the claim that settles it claims", async () => {
    // The everyday claim sees the lost lease, claims nothing, and the claim that settles lost leases takes the
    // delivery over (its second attempt) and logs the lost first one.
    const { lostClaim, launched, writeOutcomes } = await lostLeaseWave(leaseAndRetry);
    expect(await writeOutcomes()).toEqual(["DELIVERED", "DELIVERED"]);
    expect(launched.map((batch) => batch.map((c) => [c.id, c.attempt]))).toEqual([[[lostClaim.id, 2]]]);
    expect(launched[0]![0]!.token).not.toBe(lostClaim.token);
    const logged = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, lostClaim.id));
    expect(logged.map((a) => [a.attemptNumber, a.error, a.responseStatus, a.startedAt])).toEqual([[1, LOST_ATTEMPT_ERROR, null, at]]);
  });

  it("when the claim that settles a lost lease fails, hands over no claims, logs it, and still writes the outcomes", async () => {
    // As above, but the attempt log refuses the lost attempt's row, so the claim that settles lost leases fails
    // after the everyday claim (with the outcomes) has committed. Later than the test above by more than
    // SETTLE_LOST_MS, so this process's claims are everyday claims again (its hand-over opened that window).
    const { answered, lostClaim, launched, writeOutcomes } = await lostLeaseWave(leaseAndRetry + 60_000 + SETTLE_LOST_MS);
    await t.db.execute(sql`create or replace function test_fail_lost_log() returns trigger language plpgsql as $$
      begin if new.error = ${sql.raw(`'${LOST_ATTEMPT_ERROR}'`)} then raise exception 'attempt log unavailable'; end if; return new; end $$`);
    await t.db.execute(sql`create trigger test_fail_lost_log before insert on webhook_attempts for each row execute function test_fail_lost_log()`);
    const log = captureLog();
    try {
      expect(await writeOutcomes()).toEqual(["DELIVERED", "DELIVERED"]);
    } finally {
      log.restore();
      await t.db.execute(sql`drop trigger test_fail_lost_log on webhook_attempts`);
    }
    expect(launched).toEqual([[]]);
    const failed = log.records().filter((r) => r.msg === "claiming webhook deliveries failed");
    expect(failed).toHaveLength(1);
    expect(JSON.stringify(failed[0]!.err)).toContain("attempt log unavailable");
    for (const c of answered) expect(await deliveryRow(t.db, c.id)).toMatchObject({ status: "DELIVERED", claimToken: null });
    // Nothing of the failed claim written: the lost lease is still there, for the next claim to settle.
    expect(await deliveryRow(t.db, lostClaim.id)).toMatchObject({ status: "PENDING", claimToken: lostClaim.token, attempts: 1 });
    expect(await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, lostClaim.id))).toEqual([]);
  });

  it("claims nothing when the worker has no room", async () => {
    const { claims, waiting } = await capFull();
    const launched: TClaim[][] = [];
    const writer = createOutcomeWriter(t.db, { outstanding: () => 1, claimNext: { options: capped, room: () => 0, launch: (c) => launched.push(c) } });
    await Promise.all(claims.map((c) => writer.record(c, ok())));
    expect(launched).toEqual([]);
    for (const id of waiting) expect(await deliveryRow(t.db, id)).toMatchObject({ status: "PENDING", claimToken: null });
  });

  it("when the transaction fails, writes nothing of it: no claims, and the outcomes one by one", async () => {
    const { claims, waiting } = await capFull();
    const launched: TClaim[][] = [];
    const writer = createOutcomeWriter(t.db, {
      outstanding: () => 1,
      // A cap PostgreSQL refuses ('NaN'::int): the claim statement fails after the outcome statement has run.
      claimNext: { options: { perEndpointCap: Number.NaN }, room: () => 4, launch: (c) => launched.push(c) },
    });
    const outcomes = await Promise.all(claims.map((c) => writer.record(c, ok())));
    expect(launched).toEqual([[]]);
    expect(outcomes.map((o) => ("status" in o ? o.status : o.kind))).toEqual(["DELIVERED", "DELIVERED"]);
    for (const id of waiting) expect(await deliveryRow(t.db, id)).toMatchObject({ status: "PENDING", claimToken: null });
    // Each outcome written once: one attempt row per delivery.
    expect((await t.db.select({ n: count() }).from(webhookAttempts))[0]!.n).toBe(2);
  });
});
