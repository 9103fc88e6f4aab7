/**
 * Protects the worker job's claiming ahead (webhook-delivery-job.ts) on the real worker loop and a local receiver:
 * - it holds more of an endpoint's leases than the cap, yet never has more than the cap's requests out to one
 *   endpoint, and delivers each delivery once;
 * - its row in webhook_workers is there while it runs (written before its first claim) and gone once it stops;
 * - a graceful stop gives back the claims it never sent (lease cleared, attempt uncounted), as it does the
 *   attempts in flight;
 * - a claim that waited until its lease has less than two deadlines left is given back and claimed afresh, not
 *   sent: every request leaves with at least two deadlines of lease left (the pre-send check's and the outcome's
 *   margin), read from the database by the receiver as each request arrives.
 */
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/server/db/client";
import { setClock } from "@/server/lib/clock";
import { createWebhookDeliveryJob } from "@/server/jobs/webhook-delivery-job";
import { startWorker } from "@/server/jobs/worker";
import { useTestDb } from "@/server/test/db";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { withEvents } from "@/server/domain/transaction";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { YOUNG_LEASE_LEFT_MS } from "./confirm-claims";

const t = useTestDb();
const rx = useLocalReceiver();
const CAP = WEBHOOK_LIMITS.perEndpointCap;

afterEach(() => setClock(undefined));

/** An endpoint (on its own path of the receiver) with `n` deliveries queued; their ids, oldest first. */
async function endpointWith(name: string, n: number) {
  const { actor, endpoint } = await setupEndpoint(t.db, rx.url.replace("/hook", `/${name}`), { name });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const raised = await withEvents(t.db, (tx) =>
      recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`${name}${i}`) }),
    );
    ids.push(...raised.deliveryIds);
  }
  return { endpoint, ids };
}

const leasedAt = async (endpointId: string) =>
  (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from webhook_queue where endpoint_id = ${endpointId} and claim_token is not null`))[0]!.n;

const workerRows = () => queryRows<{ id: string }>(t.db, sql`select id from webhook_workers`);

describe("the delivery job, claiming ahead", () => {
  it("holds more of an endpoint's leases than the cap, sends at most the cap at once, and delivers each delivery once", async () => {
    const { endpoint, ids } = await endpointWith("one", 40);
    let open = 0;
    let peak = 0;
    let mostLeased = 0;
    rx.setHandler((req, res) => {
      open += 1;
      peak = Math.max(peak, open);
      void leasedAt(endpoint.id).then((n) => {
        mostLeased = Math.max(mostLeased, n);
        // Answered 100 ms after it arrived: long enough for a wave's requests to be all out on a loaded machine.
        setTimeout(() => {
          open -= 1;
          answer(200)(req, res);
        }, 100);
      });
    });
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      const received = await rx.waitFor(before + 40);
      const sent = received.slice(before).map((r) => r.headers["x-foliosign-delivery-id"]);
      expect([...sent].sort()).toEqual([...ids].sort());
      await vi.waitFor(async () => expect((await Promise.all(ids.map((id) => deliveryRow(t.db, id)))).every((r) => r.status === "DELIVERED")).toBe(true), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      await worker.stop();
    }
    expect(peak).toBe(CAP);
    expect(mostLeased).toBeGreaterThan(CAP);
    expect(mostLeased).toBeLessThanOrEqual(WEBHOOK_LIMITS.claimAhead);
    expect(rx.received.length).toBe(before + 40);
  });

  it("is live while it runs (its row written before its first claim) and gone once stopped; a stop gives back the claims never sent", async () => {
    const { endpoint, ids } = await endpointWith("held", 20);
    const held: (() => void)[] = [];
    rx.setHandler((req, res) => held.push(() => answer(200)(req, res)));
    const before = rx.received.length;
    const job = createWebhookDeliveryJob({ workerId: "w-test" });
    const worker = await startWorker(t.handle, [job], { pollMs: 60_000 });
    try {
      await rx.waitFor(before + CAP);
      expect(await workerRows()).toEqual([{ id: "w-test" }]);
      // Every delivery is leased (claimed ahead), the cap's worth of them sent and waiting for their answers.
      await vi.waitFor(async () => expect(await leasedAt(endpoint.id)).toBe(20), { timeout: 5_000, interval: 20 });
      await worker.stop();
    } finally {
      for (const release of held.splice(0)) release();
      await worker.stop();
    }
    expect(await workerRows()).toEqual([]);
    // Nothing was delivered; the attempts in flight and the claims never sent are all handed back, uncounted.
    for (const id of ids) expect(await deliveryRow(t.db, id)).toMatchObject({ status: "PENDING", attempts: 0, claimToken: null, lockedUntil: null });
    expect(rx.received.length).toBe(before + CAP);
  });

  it("gives back a claim that waited until less than two deadlines of its lease are left, and sends it on a fresh claim", async () => {
    let offset = 0;
    setClock(() => new Date(Date.now() + offset));
    const { endpoint, ids } = await endpointWith("late", 24);
    const held: (() => void)[] = [];
    const leaseLeft: number[] = [];
    rx.setHandler((req, res) => {
      const id = req.headers["x-foliosign-delivery-id"] as string;
      void deliveryRow(t.db, id).then((row) => {
        leaseLeft.push(row.lockedUntil!.getTime() - (Date.now() + offset));
        if (leaseLeft.length <= CAP) held.push(() => answer(200)(req, res));
        else answer(200)(req, res);
      });
    });
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      // The first wave is out and unanswered; the rest wait in the worker, leased.
      await rx.waitFor(before + CAP);
      await vi.waitFor(async () => expect(await leasedAt(endpoint.id)).toBe(24), { timeout: 5_000, interval: 20 });
      await vi.waitFor(() => expect(held).toHaveLength(CAP), { timeout: 5_000, interval: 20 });
      expect(Math.min(...leaseLeft)).toBeGreaterThanOrEqual(YOUNG_LEASE_LEFT_MS);
      // 15 s later (by the clock) the waiting claims have 15 s of lease left: less than two deadlines.
      offset = WEBHOOK_LIMITS.leaseMs - YOUNG_LEASE_LEFT_MS + 5_000;
      for (const release of held.splice(0)) release();
      await rx.waitFor(before + 24);
      await vi.waitFor(async () => expect((await Promise.all(ids.map((id) => deliveryRow(t.db, id)))).every((r) => r.status === "DELIVERED")).toBe(true), {
        timeout: 5_000,
        interval: 20,
      });
    } finally {
      for (const release of held.splice(0)) release();
      await worker.stop();
    }
    // Each was sent once, every time with at least two deadlines of lease left, and counted once (the claims
    // given back were uncounted).
    expect(rx.received.length).toBe(before + 24);
    expect(leaseLeft).toHaveLength(24);
    expect(Math.min(...leaseLeft)).toBeGreaterThanOrEqual(YOUNG_LEASE_LEFT_MS - 1_000);
    for (const id of ids) expect(await deliveryRow(t.db, id)).toMatchObject({ status: "DELIVERED", attempts: 1 });
  });
});
