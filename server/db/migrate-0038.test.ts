/**
 * Migration 0038 on an installation that already holds names differing only by case (workspace names were never
 * checked; role names only by the app): it must not fail. The oldest of each pair keeps its name, each later one
 * is renamed with the first free " (n)" in any case, and from then on the indexes refuse such a pair.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { queryRows } from "./driver";
import { migratedBefore } from "./test-support/migrated-before";

it("renames the later of each same-name-in-any-case pair, then refuses new ones", async () => {
  const db = await migratedBefore("0038_");
  expect(db.position).toBe(38);
  const { handle } = db;
  try {
    const long = "L".repeat(100);
    await handle.db.execute(sql`insert into organisations (id, name) values ('org_a', 'A'), ('org_b', 'B')`);
    await handle.db.execute(sql`insert into workspaces (id, organisation_id, name, slug, is_default, created_at) values
      ('ws_1', 'org_a', 'Sales', 'sales', true, '2026-01-01'), ('ws_2', 'org_a', 'sales', 'sales-2', false, '2026-01-02'),
      ('ws_3', 'org_a', 'SALES', 'sales-3', false, '2026-01-03'), ('ws_4', 'org_a', 'Sales (2)', 'sales-4', false, '2026-01-04'),
      ('ws_5', 'org_a', ${long}, 'long-1', false, '2026-01-05'), ('ws_6', 'org_a', ${long.toLowerCase()}, 'long-2', false, '2026-01-06'),
      ('ws_7', 'org_b', 'sales', 'sales', true, '2026-01-01')`);
    await handle.db.execute(sql`insert into roles (id, organisation_id, name, created_at) values
      ('role_1', 'org_a', 'Legal', '2026-01-01'), ('role_2', 'org_a', 'legal', '2026-01-02'), ('role_3', 'org_b', 'LEGAL', '2026-01-01')`);

    await db.migrateOn();
    const names = async (table: "workspaces" | "roles") =>
      Object.fromEntries(
        (await queryRows<{ id: string; name: string }>(handle.db, sql`select id, name from ${sql.identifier(table)}`)).map((r) => [r.id, r.name]),
      );
    expect(await names("workspaces")).toEqual({
      ws_1: "Sales",
      // The oldest keeps "Sales"; "(2)" is taken by ws_4 (in any case), "(3)" then by ws_2.
      ws_2: "sales (3)",
      ws_3: "SALES (4)",
      ws_4: "Sales (2)",
      ws_5: long,
      ws_6: `${"l".repeat(96)} (2)`,
      ws_7: "sales",
    });
    expect(await names("roles")).toEqual({ role_1: "Legal", role_2: "legal (2)", role_3: "LEGAL" });

    const refused = await handle.db.execute(sql`insert into roles (id, organisation_id, name) values ('role_4', 'org_a', 'LEGAL')`).catch((e: unknown) => e);
    expect(String((refused as { cause?: unknown }).cause ?? refused)).toContain("roles_org_lower_name_uq");
  } finally {
    await db.close();
  }
});
