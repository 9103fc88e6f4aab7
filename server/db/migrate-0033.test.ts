/**
 * Migration 0033 on a database with history: attempts stored before it get their delivery's endpoint (the column
 * is NOT NULL from then on), so the dashboards' reads by endpoint see the whole retained history, not only the
 * attempts made after the upgrade. The database is migrated to 0032 from a copy of the migrations folder cut there,
 * given deliveries with attempts the way the engine stored them then (and an attempt whose delivery is gone, which
 * no page can show and which would block the NOT NULL), and migrated on.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "./client";
import { migratedBefore } from "./test-support/migrated-before";

it("gives the attempts stored before it their delivery's endpoint, and drops an attempt whose delivery is gone", async () => {
  const db = await migratedBefore("0033_");
  expect(db.position).toBe(33);
  const { handle } = db;
  try {
    await handle.db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts)
      values ('whd_a', 'ev_1', 'whe_1', 'PACKAGE_SENT', 'DELIVERED', 2), ('whd_b', 'ev_1', 'whe_2', 'PACKAGE_SENT', 'FAILED', 1)`);
    await handle.db.execute(sql`insert into webhook_attempts (id, delivery_id, attempt_number, started_at)
      values ('wha_1', 'whd_a', 1, now()), ('wha_2', 'whd_a', 2, now()), ('wha_3', 'whd_b', 1, now()),
        ('wha_4', 'whd_gone', 1, now())`);

    await db.migrateOn();
    const rows = await queryRows<{ id: string; endpoint_id: string }>(handle.db, sql`select id, endpoint_id from webhook_attempts order by id`);
    expect(rows).toEqual([
      { id: "wha_1", endpoint_id: "whe_1" },
      { id: "wha_2", endpoint_id: "whe_1" },
      { id: "wha_3", endpoint_id: "whe_2" },
    ]);
    const [column] = await queryRows<{ is_nullable: string }>(
      handle.db,
      sql`select is_nullable from information_schema.columns where table_name = 'webhook_attempts' and column_name = 'endpoint_id'`,
    );
    expect(column?.is_nullable).toBe("NO");
    // The attempts by endpoint and time have their index; the key by id is gone (nothing looks an attempt up by id).
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      handle.db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'webhook_attempts' order by indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual(["webhook_attempts_delivery_idx", "webhook_attempts_endpoint_idx"]);
    expect(indexes[1]!.indexdef).toContain("(endpoint_id, started_at)");
  } finally {
    await db.close();
  }
});
