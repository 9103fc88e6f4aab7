/**
 * Protects webhook housekeeping as declared jobs run by the worker's runner (it used to be one job that
 * throttled itself): finished deliveries older than the retention age are pruned, then their orphaned events,
 * while queued and recent ones stay; queued deliveries of paused endpoints that no worker holds are dropped as
 * "endpoint paused" with the lost attempt logged, one endpoint per transaction; the sweep looks once a minute
 * and the prune every ten minutes, as before. Wired into the worker's job list after the delivery job.
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/server/db/schema";
import { LOST_ATTEMPT_ERROR } from "@/server/domain/webhooks/delivery/claim-deliveries";
import { webhookRetentionJobs } from "@/server/domain/webhooks/jobs";
import { deliveryRow, raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { allJobs } from "./all-jobs";
import { runDeclaredJob } from "./run-declared-job";

const t = useTestDb();
const DAY = 24 * 3600_000;

function retentionRunners() {
  const jobs = Object.values(webhookRetentionJobs({ retentionDays: 30 })).map((job) => runDeclaredJob(job));
  return async () => {
    for (const job of jobs) await job.run(t.handle, new AbortController().signal);
  };
}

describe("webhook retention jobs", () => {
  it("are the worker's jobs after the delivery job (and the packages scheduler)", async () => {
    const jobs = allJobs();
    // Other capabilities' jobs follow (their own tests check they are listed).
    const names = jobs.map((j) => j.name);
    expect(names[0]).toBe("webhook-delivery");
    expect(names).toEqual(expect.arrayContaining(["webhook-drop-paused", "webhook-prune-deliveries", "webhook-prune-events"]));
    await Promise.all(jobs.map((j) => j.stop?.()));
  });

  it("prune finished deliveries older than the retention age and then their events, keep queued and recent ones, every ten minutes", async () => {
    const today = new Date("2030-02-01T00:00:00Z");
    let clock = today;
    setClock(() => clock);
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    // Each delivery is raised `ageDays` before today (its own event), then set to `status`.
    const rows = [
      { name: "old_done", ageDays: 31, status: "DELIVERED" },
      { name: "old_exhausted", ageDays: 31, status: "EXHAUSTED" },
      { name: "old_queued", ageDays: 40, status: "PENDING" },
      { name: "recent_done", ageDays: 11, status: "EXHAUSTED" },
    ] as const;
    const ids: Record<string, string> = {};
    for (const row of rows) {
      clock = new Date(today.getTime() - row.ageDays * DAY);
      const [id] = (await raisePackageSent(t.db, actor, row.name)).deliveryIds;
      await setDeliveryState(t.db, [id!], { status: row.status });
      ids[row.name] = id!;
    }
    clock = today;
    const [oldQueued, recentDone] = [ids.old_queued, ids.recent_done];

    const run = retentionRunners();
    await run();
    const left = async () => (await t.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)).map((r) => r.id).sort();
    expect(await left()).toEqual([oldQueued, recentDone].sort());
    expect((await t.db.select({ n: count() }).from(webhookEvents))[0]!.n).toBe(2);

    // Finished long ago after all: pruned at the next look, ten minutes after the last one.
    const lastLook = clock;
    await t.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(lastLook.getTime() - 31 * DAY) })
      .where(eq(webhookDeliveries.id, recentDone!));
    clock = new Date(lastLook.getTime() + 10 * 60_000 - 1);
    await run();
    expect(await left()).toEqual([oldQueued, recentDone].sort());
    clock = new Date(lastLook.getTime() + 10 * 60_000);
    await run();
    expect(await left()).toEqual([oldQueued]);
  });

  it("drop the queued deliveries of paused endpoints once no worker holds them, logging a lost attempt, once a minute", async () => {
    let clock = new Date("2030-01-01T00:00:00Z");
    setClock(() => clock);
    const at = clock;
    const first = await setupEndpoint(t.db, "https://93.184.216.34/x", { name: "Acme" });
    const second = await setupEndpoint(t.db, "https://93.184.216.34/y", { name: "Globex" });
    const [held] = (await raisePackageSent(t.db, first.actor, "a")).deliveryIds;
    const [orphan] = (await raisePackageSent(t.db, first.actor, "b")).deliveryIds;
    const [queued] = (await raisePackageSent(t.db, second.actor, "c")).deliveryIds;
    await t.db.update(webhookEndpoints).set({ enabled: false });
    // One worker holds `held` (its lease runs 10 s more); the worker that claimed `orphan` died (lease over).
    const claimedAt = new Date(at.getTime() - 30_001);
    await setDeliveryState(t.db, [held!], { attempts: 1, lastAttemptAt: at, lease: { token: "alive", lockedUntil: new Date(at.getTime() + 10_000) } });
    await setDeliveryState(t.db, [orphan!], { attempts: 1, lastAttemptAt: claimedAt, lease: { token: "dead", lockedUntil: new Date(at.getTime() - 1) } });

    const run = retentionRunners();
    await run();
    for (const id of [orphan, queued])
      expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", claimToken: null });
    expect(await deliveryRow(t.db, held!)).toMatchObject({ status: "PENDING", claimToken: "alive" });
    expect(await t.db.select().from(webhookAttempts)).toEqual([
      expect.objectContaining({ deliveryId: orphan, attemptNumber: 1, startedAt: claimedAt, error: LOST_ATTEMPT_ERROR, responseStatus: null }),
    ]);

    // The held one's worker dies too: its lease expires; the sweep drops it at its next look, a minute on.
    clock = new Date(at.getTime() + 59_999);
    await run();
    expect(await deliveryRow(t.db, held!)).toMatchObject({ status: "PENDING" });
    clock = new Date(at.getTime() + 60_000);
    await run();
    expect(await deliveryRow(t.db, held!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused" });
  });
});
