/**
 * Protects webhook housekeeping: finished deliveries (and then their orphaned events) older than the
 * retention age are pruned while anything still queued is kept whatever its age; and the safety net drops
 * queued deliveries of a paused endpoint that a pause could not reach (their worker died while holding them);
 * a dropped delivery whose worker was lost has that attempt in the log, whether the safety net or a pause drops it;
 * deliveries deleted by any path take their queue rows and attempts with them, and deleted endpoints, events and
 * workspaces their deliveries (statement triggers, not foreign keys); an event's deliveries are found through an
 * index (retention's orphan check and the events' cascade read no whole delivery history).
 */
import { count, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, webhookQueue, workspaces } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { useTestDb } from "@/server/test/db";
import { explainPlan, indexLookups, planNodes } from "@/server/test/query-plan";
import { claimDeliveries, LOST_ATTEMPT_ERROR } from "./claim-deliveries";
import { dropPausedDeliveries } from "./drop-paused-deliveries";
import { pruneDeliveries } from "./prune-deliveries";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { deliveryRow, raisePackageSent, setDeliveryState, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";

const t = useTestDb();
const DAY = 24 * 3600_000;

describe("retention", () => {
  it("prunes finished deliveries older than the retention age, keeps queued ones and recent ones", async () => {
    let clock = new Date("2030-01-01T00:00:00Z");
    setClock(() => clock);
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [oldDone] = (await raisePackageSent(t.db, actor, "old_done")).deliveryIds;
    const [oldQueued] = (await raisePackageSent(t.db, actor, "old_queued")).deliveryIds;
    await setDeliveryState(t.db, [oldDone!], { status: "DELIVERED" });
    clock = new Date(clock.getTime() + 20 * DAY);
    const [recentDone] = (await raisePackageSent(t.db, actor, "recent")).deliveryIds;
    await setDeliveryState(t.db, [recentDone!], { status: "EXHAUSTED" });
    clock = new Date(clock.getTime() + 11 * DAY);

    expect(await pruneDeliveries(t.db, { retentionDays: 30 })).toEqual({ deliveries: 1, events: 1 });
    const left = await t.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries);
    expect(left.map((r) => r.id).sort()).toEqual([oldQueued, recentDone].sort());
    expect((await t.db.select({ n: count() }).from(webhookEvents))[0]!.n).toBe(2);
  });

  it("deleted deliveries take their attempts with them, whatever deletes them, and leave every other delivery's", async () => {
    const at = new Date("2030-01-01T00:00:00Z");
    setClock(() => at);
    const one = await setupEndpoint(t.db, "https://93.184.216.34/one", { name: "One" });
    const two = await setupEndpoint(t.db, "https://93.184.216.34/two", { name: "Two" });
    const ids = async (actor: typeof one.actor, pkg: string) => (await raisePackageSent(t.db, actor, pkg)).deliveryIds;
    const [a, b] = [...(await ids(one.actor, "a")), ...(await ids(one.actor, "b"))];
    const [c, d] = [...(await ids(two.actor, "c")), ...(await ids(two.actor, "d"))];
    await t.db
      .insert(webhookAttempts)
      .values(
        [a!, b!, c!, d!].flatMap((deliveryId, i) =>
          [1, 2].map((attemptNumber) => ({ id: newId("wha"), deliveryId, endpointId: (i < 2 ? one : two).endpoint.id, attemptNumber, startedAt: at })),
        ),
      );
    const logged = async () => (await t.db.select({ id: webhookAttempts.deliveryId }).from(webhookAttempts)).map((r) => r.id).sort();
    const recorded = async () => (await t.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries)).map((r) => r.id).sort();
    const queued = async () => (await t.db.select({ id: webhookQueue.deliveryId }).from(webhookQueue)).map((r) => r.id).sort();
    // A delivery deleted by itself (retention deletes them so): its queue row and attempts go (triggers).
    await t.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, a!));
    expect(await logged()).toEqual([b, b, c, c, d, d].sort());
    expect(await queued()).toEqual([b, c, d].sort());
    // An endpoint deleted: its deliveries go (a trigger, migration 0030), and their queue rows and attempts with them.
    await t.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, one.endpoint.id));
    expect(await logged()).toEqual([c, c, d, d].sort());
    expect(await recorded()).toEqual([c, d].sort());
    expect(await queued()).toEqual([c, d].sort());
    // An event deleted: the same through the event's trigger.
    const { eventId } = await deliveryRow(t.db, c!);
    await t.db.delete(webhookEvents).where(eq(webhookEvents.id, eventId));
    expect(await logged()).toEqual([d, d]);
    expect(await recorded()).toEqual([d]);
    expect(await queued()).toEqual([d]);
    // A workspace deleted: its endpoints and events go by their foreign keys' cascades, the rest as above.
    await t.db.delete(workspaces).where(eq(workspaces.id, two.actor.workspace.id));
    expect([await logged(), await recorded(), await queued()]).toEqual([[], [], []]);
  });

  it("a cascade takes a lease with its queue row: the endpoint's room counts it no more", async () => {
    const at = new Date("2030-01-01T00:00:00Z");
    setClock(() => at);
    const { actor } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [gone, heldLive] = (await raisePackageSent(t.db, actor, "a")).deliveryIds.concat((await raisePackageSent(t.db, actor, "b")).deliveryIds);
    await setDeliveryState(t.db, [gone!], { attempts: 1, lease: { token: "alive-1", lockedUntil: new Date(at.getTime() + 10_000) } });
    await setDeliveryState(t.db, [heldLive!], { attempts: 1, lease: { token: "alive-2", lockedUntil: new Date(at.getTime() + 10_000) } });
    // What a cascade from a deleted workspace does: the record and its queue row (with the lease) go.
    await t.db.delete(webhookDeliveries).where(eq(webhookDeliveries.id, gone!));
    expect((await t.db.select().from(webhookQueue)).map((q) => q.deliveryId)).toEqual([heldLive]);
    const [next] = (await raisePackageSent(t.db, actor, "c")).deliveryIds;
    expect((await claimDeliveries(t.db, { limit: 10, perEndpointCap: 2, firstAttemptReserve: 1 })).map((c) => c.id)).toEqual([next]);
    // With a cap of two, the endpoint's room is one: the lease that went with its row counts no more.
    expect(await claimDeliveries(t.db, { limit: 10, perEndpointCap: 2 })).toEqual([]);
  });

  it("drops queued deliveries of a paused endpoint once no worker holds them", async () => {
    const at = new Date("2030-01-01T00:00:00Z");
    setClock(() => at);
    const { actor, endpoint } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [held] = (await raisePackageSent(t.db, actor, "a")).deliveryIds;
    const [orphan] = (await raisePackageSent(t.db, actor, "b")).deliveryIds;
    await t.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpoint.id));
    await setDeliveryState(t.db, [held!], { attempts: 1, lastAttemptAt: at, lease: { token: "alive", lockedUntil: new Date(at.getTime() + 10_000) } });
    const claimedAt = new Date(at.getTime() - 30_001);
    await setDeliveryState(t.db, [orphan!], { attempts: 1, lastAttemptAt: claimedAt, lease: { token: "dead", lockedUntil: new Date(at.getTime() - 1) } });

    expect(await dropPausedDeliveries(t.db)).toBe(1);
    expect(await deliveryRow(t.db, orphan!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", claimToken: null });
    expect(await deliveryRow(t.db, held!)).toMatchObject({ status: "PENDING", claimToken: "alive" });
    // The orphan's attempt (counted at its claim, its worker lost) is in the log; the held one's is not yet.
    const logged = await t.db.select().from(webhookAttempts);
    expect(logged).toEqual([
      expect.objectContaining({ deliveryId: orphan, attemptNumber: 1, startedAt: claimedAt, error: LOST_ATTEMPT_ERROR, responseStatus: null }),
    ]);
  });

  it("a pause logs the lost attempt of a delivery whose worker's lease had expired, as it drops it", async () => {
    const at = new Date("2030-01-01T00:00:00Z");
    setClock(() => at);
    const { actor, endpoint } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [orphan] = (await raisePackageSent(t.db, actor, "a")).deliveryIds;
    const [queued] = (await raisePackageSent(t.db, actor, "b")).deliveryIds;
    const claimedAt = new Date(at.getTime() - 60_000);
    await setDeliveryState(t.db, [orphan!], {
      status: "FAILED",
      attempts: 3,
      lastAttemptAt: claimedAt,
      lease: { token: "dead", lockedUntil: new Date(at.getTime() - 1) },
    });

    await updateEndpoint(t.db, actor, { endpointId: endpoint.id, enabled: false });
    for (const id of [orphan, queued]) expect(await deliveryRow(t.db, id!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused" });
    const logged = await t.db.select().from(webhookAttempts);
    expect(logged).toEqual([expect.objectContaining({ deliveryId: orphan, attemptNumber: 3, startedAt: claimedAt, error: LOST_ATTEMPT_ERROR })]);
  });

  it("finds an event's deliveries through an index: retention's orphan check and the events' cascade scan no history", async () => {
    // With sequential scans priced out, a plan still scans webhook_deliveries whole when no index can serve the
    // lookup by event (as before migration 0031: ~1 s a batch of 1,000 events at a million deliveries). The two
    // shapes are the prune job's (jobs.ts: NOT EXISTS by event id) and the trigger's (DELETE … USING by event id).
    const plan = async (query: SQL) => {
      // Merge and hash joins priced out too: on these near-empty tables the planner would otherwise join by reading
      // the whole index in order; with a history's statistics it probes it once per event (bench:retention).
      const root = await explainPlan(t.db, query, { settings: { enable_seqscan: "off", enable_mergejoin: "off", enable_hashjoin: "off" } });
      return {
        seqScans: planNodes(root).filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "webhook_deliveries").length,
        indexes: indexLookups(root),
      };
    };
    // The index looks the deliveries up by their event (not a whole-index scan with a filter).
    const byEvent = expect.stringMatching(/^webhook_deliveries_event_idx: \(event_id = /);
    const orphanCheck = await plan(
      sql`select e.id from webhook_events e where e.created_at < now() and not exists (select 1 from webhook_deliveries d where d.event_id = e.id) limit 1000`,
    );
    expect(orphanCheck.seqScans).toBe(0);
    expect(orphanCheck.indexes).toContainEqual(byEvent);
    const cascade = await plan(sql`delete from webhook_deliveries d using (select unnest(array['ev_1', 'ev_2']) as id) g where d.event_id = g.id`);
    expect(cascade).toEqual({ seqScans: 0, indexes: [byEvent] });
  });
});
