/**
 * Protects the worker's group-commit path, which carries nearly every outcome under load: a batch mixing
 * successes and failures writes each exactly as recordAttemptOutcome would (DELIVERED / FAILED with a retry,
 * attempts logged, endpoint counter), and the claim token still fences every row inside a batch — a row
 * taken over by another worker is reported stale and left untouched while the rest of the batch is written.
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookQueue } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { claimDeliveries, type TClaim } from "./claim-deliveries";
import { createOutcomeWriter } from "./outcome-writer";
import type { TAttemptResult } from "./record-attempt-outcome";
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
