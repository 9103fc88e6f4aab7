/**
 * hotQuery (server/db/driver/prepared.ts): the SQL drizzle built once, sent straight to the driver with its
 * placeholders filled, rows keyed by the select's aliases — the same on PGlite and PostgreSQL; timestamps
 * formatted by the database exactly as Date#toISOString writes them; and on PostgreSQL, plan-stable statements
 * on the generic-plan pool, the others (and anything in a transaction) where they always ran.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { packages } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { newId } from "@/server/lib/ids";
import { epochMs, hotColumns, hotQuery, isoText } from "./driver";

const t = useTestDb();

describe("hotQuery", () => {
  it("fills every placeholder (a repeated one too) and returns rows keyed by the aliases", async () => {
    const org = await createTestOrg(t.db);
    for (const title of ["b", "a", "c"]) {
      await t.db
        .insert(packages)
        .values({ id: newId("pkg"), organisationId: org.organisationId, workspaceId: org.workspaceId, ownerUserId: org.userId, title });
    }
    const q = hotQuery<{ ws: string; skip: string }, { name: string; same: boolean; n: number }>(t.db, "test_titles", () =>
      t.db
        .select(
          hotColumns({
            name: packages.title,
            same: sql<boolean>`${packages.workspaceId} = ${sql.placeholder("ws")}`,
            n: sql<number>`length(${packages.title})`,
          }),
        )
        .from(packages)
        .where(sql`${packages.workspaceId} = ${sql.placeholder("ws")} and ${packages.title} <> ${sql.placeholder("skip")}`)
        .orderBy(packages.title),
    );
    expect(await q({ ws: org.workspaceId, skip: "b" })).toEqual([
      { name: "a", same: true, n: 1 },
      { name: "c", same: true, n: 1 },
    ]);
    // Built once per handle and key: the second call with other values reuses it.
    expect(await q({ ws: "ws_other", skip: "b" })).toEqual([]);
  });

  it("writes timestamps as Date#toISOString does (UTC, milliseconds truncated) and as epoch milliseconds", async () => {
    const values = ["2026-03-01 10:00:00.123999+02", "1999-12-31 23:59:59.9995-00:30", "2026-01-01 00:00:00+00", "0999-06-01 12:00:00.5+00"];
    for (const v of values) {
      const [row] = await hotQuery<{ v: string }, { iso: string; ms: number }>(
        t.db,
        "test_iso",
        () => sql`select ${isoText(sql`${sql.placeholder("v")}::timestamptz`)} as iso, ${epochMs(sql`${sql.placeholder("v")}::timestamptz`)} as ms`,
      )({ v });
      const date = new Date(v.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
      expect({ v, iso: row!.iso }).toEqual({ v, iso: date.toISOString() });
      expect(new Date(row!.ms).toISOString()).toBe(date.toISOString());
    }
    const [nulls] = await hotQuery<Record<string, never>, { iso: string | null }>(
      t.db,
      "test_iso_null",
      () => sql`select ${isoText(sql`null::timestamptz`)} as iso`,
    )({});
    expect(nulls).toEqual({ iso: null });
  });

  it("refuses a value it cannot pass to the driver as it is (a Date)", () => {
    expect(() => hotQuery(t.db, "test_date_param", () => sql`select ${new Date()}::timestamptz as at`)).toThrow(/use a placeholder/);
  });

  it("runs in the caller's transaction: it sees the transaction's own writes, with either plan", async () => {
    const org = await createTestOrg(t.db);
    const seen = await t.db.transaction(async (tx) => {
      await tx
        .insert(packages)
        .values({ id: "pkg_tx", organisationId: org.organisationId, workspaceId: org.workspaceId, ownerUserId: org.userId, title: "in tx" });
      const find = (plan: "generic" | "custom") =>
        hotQuery<{ id: string }, { title: string }>(
          tx,
          `test_tx_${plan}`,
          () => sql`select ${packages.title} as title from ${packages} where ${packages.id} = ${sql.placeholder("id")}`,
          { plan },
        )({ id: "pkg_tx" });
      return [await find("generic"), await find("custom")];
    });
    expect(seen).toEqual([[{ title: "in tx" }], [{ title: "in tx" }]]);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "sends plan-stable statements to the generic-plan pool and the rest to the pool's custom plans (PostgreSQL)",
    async () => {
      const mode = (plan: "generic" | "custom" | undefined) =>
        hotQuery<Record<string, never>, { mode: string }>(
          t.db,
          `test_mode_${plan}`,
          () => sql`select current_setting('plan_cache_mode') as mode`,
          plan ? { plan } : {},
        )({});
      for (let i = 0; i < 8; i++) {
        expect(await mode("generic")).toEqual([{ mode: "force_generic_plan" }]);
        expect(await mode("custom")).toEqual([{ mode: "force_custom_plan" }]);
        expect(await mode(undefined)).toEqual([{ mode: "force_custom_plan" }]);
      }
      const inTx = await t.db.transaction((tx) =>
        hotQuery<Record<string, never>, { mode: string }>(tx, "test_mode_tx", () => sql`select current_setting('plan_cache_mode') as mode`, {
          plan: "generic",
        })({}),
      );
      expect(inTx).toEqual([{ mode: "force_custom_plan" }]);
    },
  );
});
