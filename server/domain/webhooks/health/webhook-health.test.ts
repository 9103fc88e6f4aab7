/**
 * The webhook dashboard's figures against seeded deliveries and attempts: success rate, delivery count,
 * percentiles and last attempt per endpoint; the hourly timeline; the overview; the Prometheus text.
 * The clock is fixed, so "the last 24 hours" is exact.
 */
import { ownerActor, workspaceActor } from "@/server/test/actors";
import { describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, webhookQueue } from "@/server/db/schema";
import { encryptSecret } from "@/server/lib/crypto";
import { newId } from "@/server/lib/ids";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { getEndpointHealth } from "./get-endpoint-health";
import { getEndpointTimeline } from "./get-endpoint-timeline";
import { getWebhookOverview } from "./get-webhook-overview";
import { renderMetrics } from "./render-metrics";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { pruneDeliveries } from "@/server/domain/webhooks/delivery/prune-deliveries";
import { setClock } from "@/server/lib/clock";

const t = useTestDb();
const AT = new Date("2026-11-22T12:30:00.000Z");
const ago = (minutes: number) => new Date(AT.getTime() - minutes * 60_000);

async function seedEndpoint(db: Db, org: { organisationId: string }, workspaceId: string, fields: Partial<typeof webhookEndpoints.$inferInsert> = {}) {
  const id = newId("whe");
  await db.insert(webhookEndpoints).values({
    id,
    organisationId: org.organisationId,
    workspaceId,
    url: `https://hooks.example.com/${id}`,
    events: ["PACKAGE_SENT"],
    secretEncrypted: encryptSecret("whsec_test"),
    createdAt: ago(60 * 48),
    ...fields,
  });
  return id;
}

async function seedDelivery(
  db: Db,
  org: { organisationId: string },
  workspaceId: string,
  endpointId: string,
  createdAt: Date,
  status: "PENDING" | "DELIVERED" | "FAILED" | "EXHAUSTED",
  attempts: { at: Date; status: number | null; ms: number | null; error?: string }[] = [],
) {
  const eventId = newId("evt");
  await db.insert(webhookEvents).values({
    id: eventId,
    organisationId: org.organisationId,
    workspaceId,
    event: "PACKAGE_SENT",
    payload: {},
    body: "{}",
    createdAt,
  });
  const id = newId("whd");
  await db.insert(webhookDeliveries).values({ id, eventId, endpointId, event: "PACKAGE_SENT", status, attempts: attempts.length, createdAt });
  // As the engine holds it: a queued delivery (PENDING, or FAILED with a retry to come) has its queue row.
  if (status === "PENDING" || status === "FAILED") {
    await db.insert(webhookQueue).values({ deliveryId: id, endpointId, eventId, event: "PACKAGE_SENT", nextAttemptAt: createdAt, attempts: attempts.length });
  }
  let n = 0;
  for (const a of attempts) {
    n += 1;
    await db.insert(webhookAttempts).values({
      id: newId("wha"),
      deliveryId: id,
      endpointId,
      attemptNumber: n,
      startedAt: a.at,
      durationMs: a.ms,
      responseStatus: a.status,
      error: a.error ?? null,
    });
  }
  return id;
}

describe("webhook health figures", () => {
  it("computes rate, count, percentiles and the last attempt over the last 24 hours", async () => {
    const org = await createTestOrg(t.db);
    const ws = org.workspaceId;
    const a = await seedEndpoint(t.db, org, ws);
    // Inside the window: 5 attempts, 3 with a 2xx; the timeout has no status and stays out of the percentiles.
    await seedDelivery(t.db, org, ws, a, ago(120), "DELIVERED", [{ at: ago(120), status: 200, ms: 100 }]);
    await seedDelivery(t.db, org, ws, a, ago(90), "DELIVERED", [
      { at: ago(90), status: 500, ms: 300 },
      { at: ago(89), status: 200, ms: 200 },
    ]);
    await seedDelivery(t.db, org, ws, a, ago(30), "FAILED", [
      { at: ago(30), status: null, ms: 10_000, error: "timeout" },
      { at: ago(10), status: 204, ms: 400 },
    ]);
    // Outside the window: neither its delivery nor its attempt counts.
    await seedDelivery(t.db, org, ws, a, ago(60 * 25), "DELIVERED", [{ at: ago(60 * 25), status: 200, ms: 9_000 }]);

    const [health] = await getEndpointHealth(t.db, ws, AT);
    expect(health).toMatchObject({ id: a, state: "ACTIVE", deliveryCount24h: 3, attemptCount24h: 5 });
    expect(health!.successRate24h).toBeCloseTo(3 / 5);
    // Answered durations 100, 200, 300, 400: continuous median 250, p95 385.
    expect(health!.p50Ms).toBe(250);
    expect(health!.p95Ms).toBe(385);
    expect(health!.lastAttempt).toEqual({ at: ago(10), responseStatus: 204, error: null });
  });

  it("derives states, and keeps other workspaces out", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    await seedEndpoint(t.db, org, org.workspaceId, { enabled: false });
    await seedEndpoint(t.db, org, org.workspaceId, { consecutiveFailures: 10, failingSince: ago(5) });
    await seedEndpoint(t.db, org, org.workspaceId, { consecutiveFailures: 9 });
    await seedEndpoint(t.db, org, other);
    const rows = await getEndpointHealth(t.db, org.workspaceId, AT);
    expect(rows.map((r) => r.state).sort()).toEqual(["ACTIVE", "FAILING", "PAUSED"]);
    expect(rows.find((r) => r.state === "ACTIVE")!.successRate24h).toBeNull();
  });

  it("buckets the timeline by hour with every hour present", async () => {
    const org = await createTestOrg(t.db);
    const a = await seedEndpoint(t.db, org, org.workspaceId);
    await seedDelivery(t.db, org, org.workspaceId, a, ago(20), "DELIVERED", [{ at: ago(20), status: 200, ms: 50 }]);
    await seedDelivery(t.db, org, org.workspaceId, a, ago(25), "EXHAUSTED", [{ at: ago(25), status: 500, ms: 150 }]);
    await seedDelivery(t.db, org, org.workspaceId, a, ago(95), "FAILED", [{ at: ago(95), status: 503, ms: 70 }]);
    const day = await getEndpointTimeline(t.db, a, "24h", AT);
    expect(day).toHaveLength(24);
    const last = day.at(-1)!;
    expect(last.hour).toBe("2026-11-22T12:00:00.000Z");
    expect(last.deliveries).toEqual({ PENDING: 0, DELIVERED: 1, FAILED: 0, EXHAUSTED: 1 });
    expect(last.attempts).toBe(2);
    expect(last.p50Ms).toBe(100);
    const elevenAm = day.find((b) => b.hour === "2026-11-22T10:00:00.000Z")!;
    expect(elevenAm.deliveries.FAILED).toBe(1);
    expect(day.filter((b) => b.attempts === 0)).toHaveLength(22);
    expect(await getEndpointTimeline(t.db, a, "7d", AT)).toHaveLength(168);
  });

  it("summarises the workspace for the overview, with the oldest waiting delivery's age", async () => {
    const org = await createTestOrg(t.db);
    const a = await seedEndpoint(t.db, org, org.workspaceId, { consecutiveFailures: 12, failingSince: ago(60) });
    await seedDelivery(t.db, org, org.workspaceId, a, ago(50), "FAILED");
    await seedDelivery(t.db, org, org.workspaceId, a, ago(5), "PENDING");
    await seedDelivery(t.db, org, org.workspaceId, a, ago(3), "DELIVERED");
    const o = await getWebhookOverview(t.db, ownerActor(org), AT);
    expect(o.endpoints).toEqual({ ACTIVE: 0, PAUSED: 0, FAILING: 1 });
    expect(o.failingEndpoints).toEqual([{ id: a, url: expect.stringContaining("https://"), consecutiveFailures: 12 }]);
    expect(o.deliveries24h).toEqual({ PENDING: 1, DELIVERED: 1, FAILED: 1, EXHAUSTED: 0 });
    expect(o.oldestWaiting?.ageSeconds).toBe(50 * 60);
  });

  it("renders Prometheus text with statuses, states, the duration histogram and the backlog", async () => {
    const org = await createTestOrg(t.db);
    const a = await seedEndpoint(t.db, org, org.workspaceId);
    await seedEndpoint(t.db, org, org.workspaceId, { enabled: false });
    await seedDelivery(t.db, org, org.workspaceId, a, ago(7), "PENDING");
    await seedDelivery(t.db, org, org.workspaceId, a, ago(3), "DELIVERED", [
      { at: ago(3), status: 200, ms: 80 },
      { at: ago(2), status: 200, ms: 700 },
    ]);
    const text = await renderMetrics(t.db, AT);
    expect(text).toContain('foliosign_webhook_deliveries{status="PENDING"} 1');
    expect(text).toContain('foliosign_webhook_deliveries{status="DELIVERED"} 1');
    expect(text).toContain('foliosign_webhook_endpoints{state="Active"} 1');
    expect(text).toContain('foliosign_webhook_endpoints{state="Paused"} 1');
    expect(text).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="0.1"} 1');
    expect(text).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="1"} 2');
    expect(text).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} 2');
    expect(text).toContain("foliosign_webhook_attempt_duration_seconds_sum 0.78");
    expect(text).toContain("foliosign_webhook_queue_backlog 1");
    expect(text).toContain("foliosign_webhook_oldest_pending_age_seconds 420");
  });

  // Regression: the histogram was computed from stored attempts only, so retention and endpoint deletion made
  // its counters go down, which Prometheus reads as a counter reset. Removed attempts are now folded in.
  it("keeps the duration histogram cumulative when attempts are pruned or deleted with their endpoint", async () => {
    const org = await createTestOrg(t.db);
    const a = await seedEndpoint(t.db, org, org.workspaceId);
    const b = await seedEndpoint(t.db, org, org.workspaceId);
    const old = new Date(AT.getTime() - 40 * 24 * 3_600_000);
    await seedDelivery(t.db, org, org.workspaceId, a, old, "DELIVERED", [
      { at: old, status: 500, ms: 40 },
      { at: old, status: 200, ms: 300 },
    ]);
    await seedDelivery(t.db, org, org.workspaceId, a, ago(3), "DELIVERED", [{ at: ago(3), status: 200, ms: 700 }]);
    await seedDelivery(t.db, org, org.workspaceId, b, ago(2), "EXHAUSTED", [{ at: ago(2), status: null, ms: 10_000, error: "timeout" }]);
    const histogram = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("foliosign_webhook_attempt_duration_seconds"))
        .join("\n");
    const before = histogram(await renderMetrics(t.db, AT));
    expect(before).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="0.05"} 1');
    expect(before).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} 4');
    expect(before).toContain("foliosign_webhook_attempt_duration_seconds_sum 11.04");

    setClock(() => AT);
    expect((await pruneDeliveries(t.db, { retentionDays: 30 })).deliveries).toBe(1);
    const ctx = workspaceActor(org.organisationId, org.workspaceId);
    await deleteEndpoint(t.db, ctx, { endpointId: b });
    expect(await t.db.select().from(webhookAttempts)).toHaveLength(1);
    expect(histogram(await renderMetrics(t.db, AT))).toBe(before);

    await seedDelivery(t.db, org, org.workspaceId, a, ago(1), "DELIVERED", [{ at: ago(1), status: 200, ms: 90 }]);
    expect(histogram(await renderMetrics(t.db, AT))).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} 5');
  });
});
