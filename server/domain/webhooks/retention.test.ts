/**
 * Protects webhook housekeeping: finished deliveries (and then their orphaned events) older than the
 * retention age are pruned while anything still queued is kept whatever its age; and the safety net drops
 * queued deliveries of a paused endpoint that a pause could not reach (their worker died while holding them).
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/server/db/schema";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { dropPausedDeliveries } from "./drop-paused-deliveries";
import { pruneDeliveries } from "./prune-deliveries";
import { deliveryRow, raisePackageSent, setupEndpoint } from "./test-support/fixtures";

const t = useTestDb();
const DAY = 24 * 3600_000;

describe("retention", () => {
  it("prunes finished deliveries older than the retention age, keeps queued ones and recent ones", async () => {
    let clock = new Date("2030-01-01T00:00:00Z");
    setClock(() => clock);
    const { ctx } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [oldDone] = (await raisePackageSent(t.db, ctx, "old_done")).deliveryIds;
    const [oldQueued] = (await raisePackageSent(t.db, ctx, "old_queued")).deliveryIds;
    await t.db.update(webhookDeliveries).set({ status: "DELIVERED" }).where(eq(webhookDeliveries.id, oldDone!));
    clock = new Date(clock.getTime() + 20 * DAY);
    const [recentDone] = (await raisePackageSent(t.db, ctx, "recent")).deliveryIds;
    await t.db.update(webhookDeliveries).set({ status: "EXHAUSTED" }).where(eq(webhookDeliveries.id, recentDone!));
    clock = new Date(clock.getTime() + 11 * DAY);

    expect(await pruneDeliveries(t.db, { retentionDays: 30 })).toEqual({ deliveries: 1, events: 1 });
    const left = await t.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries);
    expect(left.map((r) => r.id).sort()).toEqual([oldQueued, recentDone].sort());
    expect((await t.db.select({ n: count() }).from(webhookEvents))[0]!.n).toBe(2);
  });

  it("drops queued deliveries of a paused endpoint once no worker holds them", async () => {
    const at = new Date("2030-01-01T00:00:00Z");
    setClock(() => at);
    const { ctx, endpoint } = await setupEndpoint(t.db, "https://93.184.216.34/x");
    const [held] = (await raisePackageSent(t.db, ctx, "a")).deliveryIds;
    const [orphan] = (await raisePackageSent(t.db, ctx, "b")).deliveryIds;
    await t.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, endpoint.id));
    await t.db.update(webhookDeliveries).set({ claimToken: "alive", lockedUntil: new Date(at.getTime() + 10_000) }).where(eq(webhookDeliveries.id, held!));
    await t.db.update(webhookDeliveries).set({ claimToken: "dead", lockedUntil: new Date(at.getTime() - 1) }).where(eq(webhookDeliveries.id, orphan!));

    expect(await dropPausedDeliveries(t.db)).toBe(1);
    expect(await deliveryRow(t.db, orphan!)).toMatchObject({ status: "EXHAUSTED", lastError: "endpoint paused", claimToken: null });
    expect(await deliveryRow(t.db, held!)).toMatchObject({ status: "PENDING", claimToken: "alive" });
  });
});
