/**
 * Protects the delivery worker's promises against a local receiver (http on 127.0.0.1, allowed only because
 * this file turns WEBHOOK_ALLOW_PRIVATE_TARGETS on): what is sent and how it is signed, the retry schedule to
 * EXHAUSTED after nine attempts, endpoint health (Failing at 10 consecutive failures, reset by a success,
 * cleared by resume), pause dropping queued deliveries, 3xx as failure, per-endpoint fairness, the lease and
 * the claim token (a stale worker's write is refused), and graceful release on shutdown. Time is injected
 * with a manual clock; the receiver answers when told — nothing sleeps.
 */
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { webhookAttempts, webhookEndpoints } from "@/server/db/schema";
import { manualClock } from "@/server/test/manual-clock";
import { useTestDb } from "@/server/test/db";
import { claimDeliveries, LOST_ATTEMPT_ERROR } from "./claim-deliveries";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { createOutcomeWriter } from "./outcome-writer";
import { performDelivery } from "./perform-delivery";
import { recordAttemptOutcome } from "./record-attempt-outcome";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { getEndpointHealth } from "@/server/domain/webhooks/health/get-endpoint-health";
import { getWebhookOverview } from "@/server/domain/webhooks/health/get-webhook-overview";
import { renderMetrics } from "@/server/domain/webhooks/health/render-metrics";
import { toEndpointView } from "@/server/domain/webhooks/endpoints/endpoint-view";
import { answer, startReceiver } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, endpointRow, raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
const rx = useLocalReceiver();
const clock = manualClock("2030-01-01T00:00:00.000Z");
const deps = { random: () => 0 };

afterEach(() => {
  rx.received.length = 0;
  rx.setHandler(answer(200));
  clock.reset();
});

describe("a delivery", () => {
  it("POSTs the stored bytes, signed both ways, and is logged as DELIVERED", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const { deliveryIds, eventId } = await raisePackageSent(t.db, actor);
    const [result] = await deliverDueWebhooks(t.db, deps);
    expect(result?.outcome).toMatchObject({ kind: "recorded", status: "DELIVERED" });

    const req = rx.received[0]!;
    const h = req.headers as Record<string, string>;
    expect(h["content-type"]).toBe("application/json");
    expect(h["x-foliosign-event"]).toBe("PACKAGE_SENT");
    expect(h["x-foliosign-delivery-id"]).toBe(deliveryIds[0]);
    const expected = createHmac("sha256", endpoint.secret).update(`${h["x-foliosign-timestamp"]}.${req.body}`).digest("hex");
    expect(h["x-foliosign-signature"]).toBe(`v1=${expected}`);
    expect(new Webhook(endpoint.secret).verify(req.body, h)).toMatchObject({ event: "PACKAGE_SENT", sequence: 1 });
    expect(JSON.parse(req.body).data).toMatchObject({ packageId: "pkg_1", metadata: { contract: "C-42" } });

    const row = await deliveryRow(t.db, deliveryIds[0]!);
    expect(row).toMatchObject({ status: "DELIVERED", attempts: 1, lastResponseStatus: 200, lastResponseBody: "ok", claimToken: null, eventId });
    const attempts = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ attemptNumber: 1, responseStatus: 200, remoteAddress: "127.0.0.1" });
  });

  it("retries on the table with a stable id and fresh timestamps, and is EXHAUSTED after nine", async () => {
    clock.use();
    rx.setHandler(answer(500, "x".repeat(5000)));
    const { actor } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    const gaps: number[] = [];
    for (let attempt = 1; attempt <= 9; attempt++) {
      const results = await deliverDueWebhooks(t.db, deps);
      expect(results.map((r) => r.claim.id)).toEqual([id]);
      const row = await deliveryRow(t.db, id!);
      expect(row.attempts).toBe(attempt);
      if (attempt < 9) {
        expect(row.status).toBe("FAILED");
        expect(row.lastResponseBody).toHaveLength(1000);
        gaps.push((row.nextAttemptAt.getTime() - clock.now.getTime()) / 60_000);
        // Not due a millisecond early.
        clock.advance(row.nextAttemptAt.getTime() - clock.now.getTime() - 1);
        expect(await deliverDueWebhooks(t.db, deps)).toHaveLength(0);
        clock.advance(1);
      } else {
        expect(row.status).toBe("EXHAUSTED");
      }
    }
    expect(gaps).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
    clock.advance(24 * 3600_000);
    expect(await deliverDueWebhooks(t.db, deps)).toHaveLength(0);
    expect(new Set(rx.received.map((r) => r.headers["x-foliosign-delivery-id"]))).toEqual(new Set([id]));
    expect(new Set(rx.received.map((r) => r.headers["x-foliosign-timestamp"])).size).toBe(9);
  });

  it("waits for a 429's Retry-After when it is longer than the schedule", async () => {
    clock.use();
    rx.setHandler((_req, res) => res.writeHead(429, { "retry-after": "600" }).end());
    const { actor } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    await deliverDueWebhooks(t.db, deps);
    expect((await deliveryRow(t.db, id!)).nextAttemptAt.getTime() - clock.now.getTime()).toBe(600_000);
  });

  it("counts a 3xx as a failure without following it", async () => {
    const elsewhere = await startReceiver();
    rx.setHandler((_req, res) => res.writeHead(302, { location: elsewhere.url }).end());
    const { actor } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    await deliverDueWebhooks(t.db, deps);
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "FAILED", lastResponseStatus: 302 });
    expect(elsewhere.received).toHaveLength(0);
    await elsewhere.close();
  });
});

// Regression: a receiver's answer with a NUL character (PostgreSQL text refuses it), or one whose 1,000th
// stored character cut an emoji in half (a lone surrogate, which JSON parameters refuse), made the outcome
// unwritable: the delivery then looked like a lost worker and was retried although it had been DELIVERED.
it("stores an answer with NUL characters or a split emoji, on the single and the batched outcome paths", async () => {
  rx.setHandler((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(999) + "\u{1F600}\u0000 tail"));
  const { actor } = await setupEndpoint(t.db, rx.url);
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(...(await raisePackageSent(t.db, actor, `pkg_${i}`)).deliveryIds);
  const writer = createOutcomeWriter(t.db, deps);
  const results = await deliverDueWebhooks(t.db, { ...deps, record: writer.record });
  expect(results.map((r) => r.outcome)).toEqual(ids.map(() => expect.objectContaining({ kind: "recorded", status: "DELIVERED" })));
  for (const id of ids) {
    const row = await deliveryRow(t.db, id);
    expect(row.lastResponseBody).toBe("x".repeat(999) + "\uFFFD");
  }
  rx.setHandler((_req, res) => res.writeHead(200).end("a\u0000b"));
  const [last] = (await raisePackageSent(t.db, actor, "pkg_nul")).deliveryIds;
  await deliverDueWebhooks(t.db, deps);
  expect(await deliveryRow(t.db, last!)).toMatchObject({ status: "DELIVERED", lastResponseBody: "a\uFFFDb" });
});

describe("endpoint health", () => {
  /** An endpoint whose receiver answers 503 to ten first attempts in one run: it has just turned Failing. */
  async function failTenTimes() {
    rx.setHandler(answer(503));
    const made = await setupEndpoint(t.db, rx.url);
    for (let i = 0; i < 10; i++) await raisePackageSent(t.db, made.actor, `pkg_${i}`);
    await deliverDueWebhooks(t.db, { ...deps, perEndpointCap: 10, firstAttemptReserve: 0 });
    return made;
  }

  it("turns Failing at 10 consecutive failures, skips new events, and resume clears it", async () => {
    clock.use();
    const { actor, endpoint } = await failTenTimes();
    let row = await endpointRow(t.db, endpoint.id);
    expect(row.consecutiveFailures).toBe(10);
    expect(row.failingSince).not.toBeNull();
    expect((await raisePackageSent(t.db, actor, "pkg_new")).deliveryIds).toEqual([]);

    await updateEndpoint(t.db, actor, { endpointId: endpoint.id, enabled: true });
    row = await endpointRow(t.db, endpoint.id);
    expect(row).toMatchObject({ consecutiveFailures: 0, failingSince: null, enabled: true });
    expect((await raisePackageSent(t.db, actor, "pkg_after")).deliveryIds).toHaveLength(1);
  });

  // Regression: the app once derived Failing from the counter alone, so a retry that succeeded while the
  // endpoint was Failing showed it as Active although new events still skipped it. Only resume ends Failing.
  it("stays Failing after a success resets the counter, on every view, until it is resumed", async () => {
    clock.use();
    const { actor, endpoint } = await failTenTimes();
    rx.setHandler(answer(200));
    clock.advance(2 * 60_000);
    await deliverDueWebhooks(t.db, { ...deps, perEndpointCap: 10, firstAttemptReserve: 0 });
    const row = await endpointRow(t.db, endpoint.id);
    expect(row.consecutiveFailures).toBe(0);
    expect(toEndpointView(row).state).toBe("FAILING");
    const [health] = await getEndpointHealth(t.db, actor.workspace.id, clock.now);
    expect(health?.state).toBe("FAILING");
    expect((await getWebhookOverview(t.db, actor, clock.now)).endpoints.FAILING).toBe(1);
    expect(await renderMetrics(t.db, clock.now)).toContain('foliosign_webhook_endpoints{state="Failing"} 1');
    expect((await raisePackageSent(t.db, actor, "pkg_skipped")).deliveryIds).toEqual([]);

    await updateEndpoint(t.db, actor, { endpointId: endpoint.id, enabled: true });
    expect((await getEndpointHealth(t.db, actor.workspace.id, clock.now))[0]?.state).toBe("ACTIVE");
  });

  it("resets the counter on a success", async () => {
    rx.setHandler(answer(500));
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    for (let i = 0; i < 3; i++) await raisePackageSent(t.db, actor, `pkg_${i}`);
    await deliverDueWebhooks(t.db, deps);
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(3);
    rx.setHandler(answer(200));
    await raisePackageSent(t.db, actor, "pkg_ok");
    await deliverDueWebhooks(t.db, deps);
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(0);
  });

  it("pausing drops queued deliveries as EXHAUSTED 'endpoint paused' without counting failures", async () => {
    clock.use();
    rx.setHandler(answer(500));
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const [retrying] = (await raisePackageSent(t.db, actor, "pkg_r")).deliveryIds;
    await deliverDueWebhooks(t.db, deps); // one failure: FAILED, retry scheduled
    const [fresh] = (await raisePackageSent(t.db, actor, "pkg_f")).deliveryIds;
    const [inFlight] = (await raisePackageSent(t.db, actor, "pkg_i")).deliveryIds;
    const claims = await claimDeliveries(t.db, { limit: 10 });
    const held = claims.find((c) => c.id === inFlight)!;
    // Release the other claim so only `inFlight` is held by a worker when the pause lands.
    for (const c of claims.filter((c) => c.id !== inFlight)) {
      await setDeliveryState(t.db, [c.id], { attempts: 0, lease: null });
    }

    const paused = await updateEndpoint(t.db, actor, { endpointId: endpoint.id, enabled: false });
    expect(paused.state).toBe("PAUSED");
    for (const id of [retrying, fresh]) {
      expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused" });
    }
    // The claim made before the pause is dropped before it is sent: no request, nothing counted.
    const sentBefore = rx.received.length;
    const outcome = await performDelivery(t.db, held, deps);
    expect(outcome).toMatchObject({ kind: "recorded", status: "EXHAUSTED" });
    expect(rx.received.length).toBe(sentBefore);
    expect(await deliveryRow(t.db, inFlight!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused" });
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(1);
    expect((await raisePackageSent(t.db, actor, "pkg_later")).deliveryIds).toEqual([]);
    clock.advance(3600_000);
    expect(await claimDeliveries(t.db, { limit: 10 })).toEqual([]);
  });
});

describe("claims", () => {
  it("caps in-flight deliveries per endpoint and keeps slots for first attempts", async () => {
    clock.use();
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const { actor: otherCtx } = await setupEndpoint(t.db, rx.url, { name: "Other" });
    const { perEndpointCap: cap, firstAttemptReserve: reserve } = WEBHOOK_LIMITS;
    for (let i = 0; i < cap; i++) await raisePackageSent(t.db, actor, `old_${i}`);
    // A cap's worth of retries already due (each had one failed attempt), older than as many fresh events.
    await setDeliveryState(t.db, { endpointId: endpoint.id }, { status: "FAILED", attempts: 1 });
    clock.advance(1000);
    for (let i = 0; i < cap; i++) await raisePackageSent(t.db, actor, `new_${i}`);
    for (let i = 0; i < 3; i++) await raisePackageSent(t.db, otherCtx, `o_${i}`);

    const claims = await claimDeliveries(t.db, { limit: 50 });
    const mine = claims.filter((c) => c.endpointId === endpoint.id);
    expect(mine).toHaveLength(cap);
    // The older retries take only their share; the reserve goes to first attempts.
    expect(mine.filter((c) => c.attempt > 1)).toHaveLength(cap - reserve);
    expect(mine.filter((c) => c.attempt === 1)).toHaveLength(reserve);
    expect(claims.filter((c) => c.endpointId !== endpoint.id)).toHaveLength(3);
    // Nothing more for that endpoint while its cap is in flight.
    expect((await claimDeliveries(t.db, { limit: 50 })).filter((c) => c.endpointId === endpoint.id)).toEqual([]);
  });

  it("lets another worker take over after the lease, and refuses the stale worker's late write", async () => {
    clock.use();
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    const [first] = await claimDeliveries(t.db, { limit: 1 });
    expect(first).toMatchObject({ id, attempt: 1 });
    expect(await claimDeliveries(t.db, { limit: 1 })).toEqual([]); // leased
    clock.advance(30_000 + 1);
    // The lease has expired, but a lost attempt is retried on the schedule: 1 minute after attempt 1.
    expect(await claimDeliveries(t.db, { limit: 1 })).toEqual([]);
    clock.advance(60_000 - 30_000 - 1);
    const [second] = await claimDeliveries(t.db, { limit: 1 });
    expect(second).toMatchObject({ id, attempt: 2 });
    expect(second!.token).not.toBe(first!.token);

    expect(await performDelivery(t.db, second!, deps)).toMatchObject({ kind: "recorded", status: "DELIVERED" });
    const late = await recordAttemptOutcome(t.db, first!, {
      ok: false,
      status: 500,
      body: "late",
      error: "HTTP 500",
      durationMs: 1,
      remoteAddress: "127.0.0.1",
      retryAfterMs: null,
      startedAt: clock.now,
    });
    expect(late).toEqual({ kind: "stale" });
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "DELIVERED", attempts: 2, lastResponseStatus: 200 });
    // The log: the lost first attempt (logged when the delivery was taken over) and the delivered second — the
    // stale worker's late 500 wrote nothing, and counted nothing against the endpoint.
    const logged = await t.db.select().from(webhookAttempts).orderBy(webhookAttempts.attemptNumber);
    expect(logged.map((a) => [a.attemptNumber, a.responseStatus, a.error])).toEqual([
      [1, null, LOST_ATTEMPT_ERROR],
      [2, 200, null],
    ]);
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(0);
  });

  it("refuses the stale worker's late write while the new owner's attempt is still in flight", async () => {
    clock.use();
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    const [id] = (await raisePackageSent(t.db, actor)).deliveryIds;
    const [first] = await claimDeliveries(t.db, { limit: 1 });
    clock.advance(60_000 + 1);
    const [second] = await claimDeliveries(t.db, { limit: 1 });
    expect(second).toMatchObject({ id, attempt: 2 });
    // The first worker answers late, a failure and then a success, while the second's attempt is out.
    const late = { status: 500, body: "late", error: "HTTP 500", durationMs: 1, remoteAddress: "127.0.0.1", retryAfterMs: null, startedAt: clock.now };
    expect(await recordAttemptOutcome(t.db, first!, { ok: false, ...late })).toEqual({ kind: "stale" });
    expect(await recordAttemptOutcome(t.db, first!, { ok: true, ...late, status: 200, error: null })).toEqual({ kind: "stale" });
    expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "PENDING", attempts: 2, claimToken: second!.token });
    expect((await endpointRow(t.db, endpoint.id)).consecutiveFailures).toBe(0);
    // Only the lost first attempt is logged so far; the second owner's outcome is then recorded.
    expect((await t.db.select().from(webhookAttempts)).map((a) => a.error)).toEqual([LOST_ATTEMPT_ERROR]);
    expect(await performDelivery(t.db, second!, deps)).toMatchObject({ kind: "recorded", status: "DELIVERED" });
  });

  it("does not claim deliveries of a deleted endpoint or record for them", async () => {
    const { actor, endpoint } = await setupEndpoint(t.db, rx.url);
    await raisePackageSent(t.db, actor);
    const [claim] = await claimDeliveries(t.db, { limit: 1 });
    await t.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(await performDelivery(t.db, claim!, deps)).toEqual({ kind: "stale" });
  });
});
