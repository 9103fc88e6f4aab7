/**
 * The main pool's session settings (server/db/client.ts), on PostgreSQL: every statement is planned for its values
 * (`plan_cache_mode = force_custom_plan`, so a prepared statement never switches to a generic plan) and is never
 * JIT-compiled (`jit = off`). JIT was the whole cost of the webhook claim on a deep queue: its plan's estimated
 * cost passed `jit_above_cost` once the queue held ~10,000 rows, and every claim spent ~150 ms compiling
 * (bench/README.md, issue 22, "JIT compiled every claim").
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

const settings = sql`select current_setting('jit') as jit, current_setting('plan_cache_mode') as plan_cache_mode`;

describe.runIf(onPostgres)("the main pool's settings", () => {
  it("runs statements without JIT and with custom plans, on the pool and in a transaction", async () => {
    expect(await queryRows(t.db, settings)).toEqual([{ jit: "off", plan_cache_mode: "force_custom_plan" }]);
    await t.db.transaction(async (tx) => {
      expect(await queryRows(tx, settings)).toEqual([{ jit: "off", plan_cache_mode: "force_custom_plan" }]);
    });
  });
});
