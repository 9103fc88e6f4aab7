/**
 * Migration 0035 on a database with history: the counters of deliveries that reached DELIVERED or EXHAUSTED start
 * from the deliveries stored in those statuses (what the 0034 tallies counted), and count on from there.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { renderMetrics } from "@/server/domain/webhooks/health/render-metrics";
import { migratedBefore } from "./test-support/migrated-before";

it("starts the finished counters from the stored deliveries, then counts each delivery that ends", async () => {
  const db = await migratedBefore("0035_");
  expect(db.position).toBe(35);
  const { handle } = db;
  try {
    await handle.db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts)
      values ('whd_a', 'ev_1', 'whe_1', 'PACKAGE_SENT', 'DELIVERED', 2), ('whd_b', 'ev_1', 'whe_2', 'PACKAGE_SENT', 'EXHAUSTED', 9),
        ('whd_c', 'ev_2', 'whe_1', 'PACKAGE_SENT', 'DELIVERED', 1), ('whd_d', 'ev_2', 'whe_2', 'PACKAGE_SENT', 'PENDING', 0)`);
    await handle.db.execute(sql`delete from webhook_deliveries where id = 'whd_c'`);

    await db.migrateOn();
    const text = () => renderMetrics(handle.db, new Date());
    expect(await text()).toContain('foliosign_webhook_deliveries_finished_total{status="DELIVERED"} 1');
    expect(await text()).toContain('foliosign_webhook_deliveries_finished_total{status="EXHAUSTED"} 1');
    await handle.db.execute(sql`update webhook_deliveries set status = 'DELIVERED' where id = 'whd_d'`);
    await handle.db.execute(sql`delete from webhook_deliveries where id = 'whd_a'`);
    expect(await text()).toContain('foliosign_webhook_deliveries_finished_total{status="DELIVERED"} 2');
    expect(await text()).toContain('foliosign_webhook_deliveries{status="DELIVERED"} 1');
  } finally {
    await db.close();
  }
});
