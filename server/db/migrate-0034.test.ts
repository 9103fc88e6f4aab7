/**
 * Migration 0034 on a database with history: the metrics' tallies start from what is stored (the finished
 * deliveries, every timed attempt) plus the durations the table it replaces had kept of attempts already removed,
 * so no Prometheus series jumps or goes down across the upgrade. The database is migrated to 0033 from a copy of the
 * migrations folder cut there, given deliveries, attempts and folded histogram series as the build before stored
 * them, and migrated on.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { renderMetrics } from "@/server/domain/webhooks/health/render-metrics";
import { queryRows } from "./client";
import { migratedBefore } from "./test-support/migrated-before";

it("starts the tallies from the stored deliveries and attempts and the histogram of removed ones", async () => {
  const db = await migratedBefore("0034_");
  expect(db.position).toBe(34);
  const { handle } = db;
  try {
    await handle.db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts)
      values ('whd_a', 'ev_1', 'whe_1', 'PACKAGE_SENT', 'DELIVERED', 2), ('whd_b', 'ev_1', 'whe_2', 'PACKAGE_SENT', 'EXHAUSTED', 9),
        ('whd_c', 'ev_2', 'whe_1', 'PACKAGE_SENT', 'DELIVERED', 1), ('whd_d', 'ev_2', 'whe_2', 'PACKAGE_SENT', 'PENDING', 0)`);
    await handle.db.execute(sql`insert into webhook_attempts (id, delivery_id, endpoint_id, attempt_number, started_at, duration_ms)
      values ('wha_1', 'whd_a', 'whe_1', 1, now(), 40), ('wha_2', 'whd_a', 'whe_1', 2, now(), 300), ('wha_3', 'whd_b', 'whe_2', 1, now(), null),
        ('wha_4', 'whd_c', 'whe_1', 1, now(), 7000)`);
    // What the build before had folded in from removed attempts: two, of 20 ms and 3 s.
    await handle.db.execute(sql`insert into webhook_attempt_histogram_base (series, value)
      values ('0.05', 1), ('0.1', 1), ('0.25', 1), ('0.5', 1), ('1', 1), ('2.5', 1), ('5', 2), ('10', 2), ('+Inf', 2), ('sum_ms', 3020)`);

    await db.migrateOn();
    // The figures the build before showed from these rows (its scrape counted the stored rows, plus the base).
    const after = await renderMetrics(handle.db, new Date());
    expect(after).toContain('foliosign_webhook_deliveries{status="DELIVERED"} 2');
    expect(after).toContain('foliosign_webhook_deliveries{status="EXHAUSTED"} 1');
    expect(after).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="0.05"} 2');
    expect(after).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="5"} 4');
    expect(after).toContain('foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} 5');
    expect(after).toContain("foliosign_webhook_attempt_duration_seconds_sum 10.36");
    const tables = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from pg_tables where tablename = 'webhook_attempt_histogram_base'`);
    expect(tables[0]!.n).toBe(0);
  } finally {
    await db.close();
  }
});
