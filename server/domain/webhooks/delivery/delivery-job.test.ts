/**
 * Protects the worker job end to end on the real worker loop: an event committed through withEvents reaches a
 * local receiver through the wake-up alone (the poll is set to a minute); a queue longer than the job's
 * concurrency drains by the job's own re-claiming as attempts finish (no poll needed), never with more requests out
 * (or attempts listening for the shutdown) than its concurrency, its next claim sent with a wave's outcomes
 * included; endpoints whose receivers
 * hang hold the other endpoints' claims back only until their attempts count as long; and a graceful stop hands
 * an attempt in flight back — lease cleared, attempt uncounted, due at once — instead of leaving it leased, and
 * returns only once the attempts of a claim that arrived with a wave's outcomes during the shutdown have handed
 * theirs back too (PostgreSQL: a second connection holds the claim lock to stage it).
 */
import postgres from "postgres";
import { inArray } from "drizzle-orm";
import { CLAIM_LOCK } from "@/server/domain/webhooks/delivery/claim-deliveries";
import { webhookDeliveries } from "@/server/db/schema";
import { describe, expect, it, vi } from "vitest";
import { createWebhookDeliveryJob } from "@/server/jobs/webhook-delivery-job";
import { startWorker } from "@/server/jobs/worker";
import { useTestDb } from "@/server/test/db";
import { recordEvent } from "@/server/domain/webhooks/events/record-event";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { deliveryRow, packageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { withEvents } from "@/server/domain/transaction";

const t = useTestDb();
const rx = useLocalReceiver();

describe("the webhook delivery job", () => {
  it("keeps claiming as attempts finish, without waiting for the poll", async () => {
    const { actor } = await setupEndpoint(t.db, rx.url);
    rx.setHandler(answer(200));
    // Queue more than the job's concurrency before it starts: only its own pumping can deliver the rest.
    for (let i = 0; i < 24; i++) {
      await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`q${i}`) }),
      );
    }
    const before = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob({ concurrency: 8 })], { pollMs: 60_000 });
    try {
      await rx.waitFor(before + 24);
    } finally {
      await worker.stop();
    }
    expect(rx.received.length).toBe(before + 24);
  });

  it("never has more requests out than its concurrency, while its next claims travel with the waves' outcomes", async () => {
    // Four endpoints (8 in flight each) and a job of 16 slots: the room of a claim sent with a batch of outcomes
    // counts the slots that batch frees, and no more. The receiver answers each request 50 ms after it arrived
    // (long enough for a wave's 16 requests to be all out on a loaded machine: at 5 ms, CI once saw a peak of 15),
    // so the attempts finish in waves. Nor do the attempts listening for the shutdown outnumber the slots (an
    // attempt's listener ends with its request, before its outcome is written): Node warns past 16 + 8.
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    let open = 0;
    let peak = 0;
    rx.setHandler((req, res) => {
      open += 1;
      peak = Math.max(peak, open);
      setTimeout(() => {
        open -= 1;
        answer(200)(req, res);
      }, 50);
    });
    const ids: string[] = [];
    for (const name of ["A", "B", "C", "D"]) {
      const { actor } = await setupEndpoint(t.db, rx.url, { name });
      for (let i = 0; i < 16; i++) {
        const raised = await withEvents(t.db, (tx) =>
          recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`${name}${i}`) }),
        );
        ids.push(...raised.deliveryIds);
      }
    }
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob({ concurrency: 16 })], { pollMs: 60_000 });
    try {
      const delivered = async () =>
        (await t.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))).filter(
          (r) => r.status === "DELIVERED",
        ).length;
      await vi.waitFor(async () => expect(await delivered()).toBe(64), { timeout: 10_000, interval: 20 });
    } finally {
      await worker.stop();
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      process.off("warning", onWarning);
    }
    expect(peak).toBe(16);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("keeps delivering to other endpoints while slow receivers hold most of the slots", async () => {
    // Seven endpoints whose receivers hang hold 7 × 8 of the 64 slots (8 in flight per endpoint). Waiting for half
    // the slots to be free before claiming again would leave the fast endpoint's queue waiting until they answer
    // (up to the 10 s deadline); waiting for a quarter, too. Their attempts stop counting once they are long.
    // Each slow request is answered only when the test lets it go.
    const held: (() => void)[] = [];
    rx.setHandler((req, res) => (req.url.startsWith("/slow") ? held.push(() => answer(200)(req, res)) : answer(200)(req, res)));
    const slow = [];
    for (let i = 0; i < 7; i++) slow.push(await setupEndpoint(t.db, rx.url.replace("/hook", `/slow${i}`), { name: `Slow ${i}` }));
    const fast = await setupEndpoint(t.db, rx.url.replace("/hook", "/fast"), { name: "Fast" });
    const queue = async (actor: typeof fast.actor, n: number, tag: string) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const raised = await withEvents(t.db, (tx) =>
          recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`${tag}${i}`) }),
        );
        ids.push(...raised.deliveryIds);
      }
      return ids;
    };
    const slowIds: string[] = [];
    for (const [i, s] of slow.entries()) slowIds.push(...(await queue(s.actor, 8, `s${i}-`)));
    const fastIds = await queue(fast.actor, 24, "f");
    const fastReceived = () => rx.received.filter((r) => r.url.startsWith("/fast")).length;
    const fastBefore = fastReceived();

    const worker = await startWorker(t.handle, [createWebhookDeliveryJob({ longAttemptMs: 200 })], { pollMs: 60_000 });
    try {
      // Three batches of 8 for the fast endpoint, each claimed once the slow attempts count as long — while
      // all 56 slow attempts are still waiting for their answers.
      await vi.waitFor(() => expect(fastReceived()).toBe(fastBefore + 24), { timeout: 5_000, interval: 20 });
      expect(held).toHaveLength(56);
      // Then the slow receivers answer: every delivery ends DELIVERED.
      for (const release of held.splice(0)) release();
      const delivered = async () =>
        (
          await t.db
            .select({ status: webhookDeliveries.status })
            .from(webhookDeliveries)
            .where(inArray(webhookDeliveries.id, [...slowIds, ...fastIds]))
        ).filter((r) => r.status === "DELIVERED").length;
      await vi.waitFor(async () => expect(await delivered()).toBe(56 + 24), { timeout: 5_000, interval: 20 });
    } finally {
      for (const release of held) release();
      await worker.stop();
    }
  });

  it("delivers on the wake-up after commit and releases an attempt in flight on stop", async () => {
    const { actor } = await setupEndpoint(t.db, rx.url);
    const start = rx.received.length;
    const worker = await startWorker(t.handle, [createWebhookDeliveryJob()], { pollMs: 60_000 });
    try {
      rx.setHandler(answer(200));
      const first = await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent("p1") }),
      );
      const req = (await rx.waitFor(start + 1))[start];
      expect(req!.headers["x-foliosign-delivery-id"]).toBe(first.deliveryIds[0]);

      // The next receiver call hangs: the attempt is in flight when the worker stops.
      rx.setHandler(() => {});
      const second = await withEvents(t.db, (tx) =>
        recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent("p2") }),
      );
      await rx.waitFor(start + 2);
      expect((await deliveryRow(t.db, second.deliveryIds[0]!)).attempts).toBe(1);
    } finally {
      await worker.stop();
    }
    const first = await deliveryRow(t.db, rx.received[start]!.headers["x-foliosign-delivery-id"] as string);
    expect(first.status).toBe("DELIVERED");
    const released = await deliveryRow(t.db, rx.received[start + 1]!.headers["x-foliosign-delivery-id"] as string);
    expect(released).toMatchObject({ status: "PENDING", attempts: 0, claimToken: null, lockedUntil: null });
  });
  it.skipIf(!process.env.DATABASE_URL)(
    "PostgreSQL: stop() returns only once a claim that arrived with a wave's outcomes during the shutdown is handed back, unsent",
    async () => {
      const { actor } = await setupEndpoint(t.db, rx.url);
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const raised = await withEvents(t.db, (tx) =>
          recordEvent(tx, { organisationId: actor.organisation.id, workspaceId: actor.workspace.id, event: "PACKAGE_SENT", data: packageSent(`w${i}`) }),
        );
        ids.push(...raised.deliveryIds);
      }
      const other = postgres(t.url, { max: 2, onnotice: () => {} });
      const holder = await other.reserve();
      // Another claimer holds the claim lock before the first wave is answered, so the claim the wave's outcomes
      // carry (4 slots freed of 4) waits for it — in the outcomes' transaction, after their statements.
      let locked: Promise<unknown> | undefined;
      rx.setHandler((req, res) => {
        locked ??= holder`begin`.then(() => holder`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`);
        void locked.then(() => answer(200)(req, res));
      });
      const before = rx.received.length;
      // Without claiming ahead (4 leases for 4 slots): the second four are claimed with the first wave's outcomes.
      const job = createWebhookDeliveryJob({ concurrency: 4, leases: 4 });
      const worker = await startWorker(t.handle, [job], { pollMs: 60_000 });
      try {
        await rx.waitFor(before + 4);
        // The transaction waiting for the lock is the outcomes': it has already deleted the wave's queue rows.
        await vi.waitFor(
          async () => {
            const [waiting] = await other<{ rows: number }[]>`
              select count(*)::int as rows from pg_locks w join pg_locks q on q.pid = w.pid
              where w.locktype = 'advisory' and not w.granted and q.relation = 'webhook_queue'::regclass and q.granted`;
            expect(waiting!.rows).toBeGreaterThan(0);
          },
          { timeout: 5_000, interval: 10 },
        );
        const stopping = job.stop!();
        // The shutdown is under way when the claim comes back with four more deliveries.
        await holder`commit`;
        holder.release();
        await stopping;
        // Right when stop() returns: the wave delivered, the claim it carried handed back — lease cleared, attempt
        // uncounted, due at once — and nothing sent after the shutdown began.
        const rows = await Promise.all(ids.map((id) => deliveryRow(t.db, id)));
        expect(rows.filter((r) => r.status === "DELIVERED")).toHaveLength(4);
        const handedBack = rows.filter((r) => r.status !== "DELIVERED");
        expect(handedBack).toHaveLength(4);
        for (const r of handedBack) expect(r).toMatchObject({ status: "PENDING", attempts: 0, claimToken: null, lockedUntil: null });
        expect(rx.received.length).toBe(before + 4);
      } finally {
        await worker.stop();
        await other.end();
      }
    },
  );
});
