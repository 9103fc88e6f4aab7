/**
 * The webhook pages read what is still waiting from the queue (./queued-deliveries.ts), which is right only while the
 * engine keeps the queue to exactly the queued deliveries: a queue row for each PENDING or FAILED delivery and for
 * no other. Checked after every way a delivery changes state, through the engine's own functions with a local
 * receiver: the fan-out, a success, a failure and its retries, exhaustion, a replay, a pause. After each, the
 * delivery log's waiting figures and its pages filtered to PENDING or FAILED (read through the queue) match the
 * records' statuses.
 */
import { sql } from "drizzle-orm";
import { afterEach, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import type { TActor } from "@/server/domain/access/actor";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { getDeliveryLog } from "@/server/domain/webhooks/health/get-delivery-log";
import { replayDeliveries } from "@/server/domain/webhooks/health/replay-deliveries";

const t = useTestDb();
const rx = useLocalReceiver();
const deps = { random: () => 0 };
let clock = new Date("2030-04-01T10:00:00.000Z");

afterEach(() => rx.setHandler(answer(200)));

/** The queue's deliveries, and the deliveries whose record says PENDING or FAILED: the same set, always. */
async function expectQueueIsTheWaiting(actor: TActor, endpointIds: string[]) {
  const queued = await queryRows<{ id: string }>(t.db, sql`select delivery_id as id from webhook_queue order by 1`);
  const waiting = await queryRows<{ id: string }>(t.db, sql`select id from webhook_deliveries where status in ('PENDING', 'FAILED') order by 1`);
  expect(queued).toEqual(waiting);
  for (const endpointId of endpointIds) {
    const counts = await queryRows<{ status: string; n: number }>(
      t.db,
      sql`select status, count(*)::int as n from webhook_deliveries where endpoint_id = ${endpointId} group by status`,
    );
    const of = (s: string) => Number(counts.find((c) => c.status === s)?.n ?? 0);
    const log = await getDeliveryLog(t.db, actor, { endpointId, page: 1, pageSize: 25 });
    expect(log.waiting).toEqual({ pending: of("PENDING"), failed: of("FAILED") });
    // The log filtered to a waiting status reads it through the queue too: the same deliveries as the records say.
    for (const status of ["PENDING", "FAILED"] as const) {
      const filtered = await getDeliveryLog(t.db, actor, { endpointId, page: 1, pageSize: 25, status });
      const expected = await queryRows<{ id: string }>(
        t.db,
        sql`select id from webhook_deliveries where endpoint_id = ${endpointId} and status = ${status} order by created_at desc, id desc`,
      );
      expect({ count: filtered.deliveryCount, ids: filtered.deliveries.map((d) => d.id) }).toEqual({ count: of(status), ids: expected.map((e) => e.id) });
    }
  }
  return waiting.length;
}

it("holds a queue row for exactly the PENDING and FAILED deliveries, through success, retries, exhaustion, replay and pause", async () => {
  setClock(() => clock);
  const { actor, endpoint: up } = await setupEndpoint(t.db, `${rx.url}/up`);
  const down = await createEndpoint(t.db, actor, { url: `${rx.url}/down` });
  const endpoints = [up.id, down.id];
  rx.setHandler((req, res) => answer(req.url.endsWith("/down") ? 500 : 200)(req, res));

  // The fan-out: two events to two endpoints, all PENDING and queued.
  await raisePackageSent(t.db, actor, "pkg_a");
  await raisePackageSent(t.db, actor, "pkg_b");
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(4);

  // First attempts: the receiver's /up deliveries end DELIVERED (dequeued), /down's are FAILED (still queued).
  await deliverDueWebhooks(t.db, deps);
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(2);

  // Retries on the schedule until the ninth attempt: EXHAUSTED, dequeued.
  for (let i = 0; i < 8; i++) {
    clock = new Date(clock.getTime() + 3 * 3_600_000);
    await deliverDueWebhooks(t.db, deps);
    await expectQueueIsTheWaiting(actor, endpoints);
  }
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(0);

  // A replay: PENDING again, queued again.
  const downIds = (await queryRows<{ id: string }>(t.db, sql`select id from webhook_deliveries where endpoint_id = ${down.id}`)).map((r) => r.id);
  expect(downIds).toHaveLength(2);
  for (const deliveryId of downIds) await replayDeliveries(t.db, actor, { endpointId: down.id, deliveryId });
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(2);

  // One more failure (FAILED, queued), then a pause: EXHAUSTED "endpoint paused", dequeued.
  await deliverDueWebhooks(t.db, deps);
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(2);
  await updateEndpoint(t.db, actor, { endpointId: down.id, enabled: false });
  expect(await expectQueueIsTheWaiting(actor, endpoints)).toBe(0);
});
