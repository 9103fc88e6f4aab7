/**
 * transactionInOneTrip (the claim's transaction, sent in one round trip on PostgreSQL): its statements run in
 * order in ONE transaction — a later one sees what an earlier one wrote — and when one fails nothing is
 * committed, the first error is thrown, and the connection goes back to the pool usable. On both databases.
 * On PostgreSQL the worker's statements run with generic plans, and the setting never leaks to the pool (whose
 * connections ask for custom plans, server/db/client.ts).
 * And the drizzle internals server/db/driver/ reaches for are still there: a drizzle upgrade that moves them
 * would otherwise turn the prepared path into a silent fallback (on both databases: no connection is made).
 */
import postgres from "postgres";
import { is, sql } from "drizzle-orm";
import { drizzle, PostgresJsSession } from "drizzle-orm/postgres-js";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";
import { queryPrepared, transactionInOneTrip } from "./driver";

const t = useTestDb();
const count = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from package_event_sequences`))[0]!.n;

describe("transactionInOneTrip", () => {
  it("runs its statements in order in one transaction, and commits them", async () => {
    const [inserted, seen] = await transactionInOneTrip(t.db, [
      sql`insert into package_event_sequences (package_id, last_sequence) values ('pkg_a', 1) returning package_id`,
      sql`select count(*)::int as n from package_event_sequences where package_id = ${"pkg_a"}`,
    ]);
    expect(inserted).toEqual([{ package_id: "pkg_a" }]);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await count()).toBe(1);
  });

  it("commits nothing when a statement fails, throws its error, and leaves the pool usable", async () => {
    const error = await transactionInOneTrip(t.db, [
      sql`insert into package_event_sequences (package_id, last_sequence) values ('pkg_b', 1)`,
      sql`select 1 / ${0}::int as boom`,
      sql`insert into package_event_sequences (package_id, last_sequence) values ('pkg_c', 1)`,
    ]).then(
      () => null,
      (e: Error) => e,
    );
    // The database's own error (drizzle wraps it on PGlite, with the original as its cause).
    expect(`${error?.message} ${(error?.cause as Error | undefined)?.message}`).toMatch(/division by zero/);
    expect(await count()).toBe(0);
    // Every connection of the pool still works (an aborted transaction left open would fail these).
    const again = await Promise.all(Array.from({ length: 12 }, () => transactionInOneTrip(t.db, [sql`select 1 as one`])));
    expect(again.every(([rows]) => (rows as { one: number }[])[0]!.one === 1)).toBe(true);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))("runs the worker's statements with generic plans, in their transaction only (PostgreSQL)", async () => {
    const setting = sql`select current_setting('plan_cache_mode') as mode`;
    // The pool's own setting (server/db/client.ts asks for custom plans on every connection).
    const before = await Promise.all(Array.from({ length: 12 }, () => queryRows<{ mode: string }>(t.db, setting)));
    expect(before.flat().every((r) => r.mode === "force_custom_plan")).toBe(true);
    const [inTrip] = await transactionInOneTrip(t.db, [setting]);
    expect(inTrip).toEqual([{ mode: "force_generic_plan" }]);
    expect(await queryPrepared(t.db, setting)).toEqual([{ mode: "force_generic_plan" }]);
    const inCallersTx = await t.db.transaction((tx) => queryPrepared(tx, setting));
    expect(inCallersTx).toEqual([{ mode: "force_generic_plan" }]);
    // Every pooled connection is back to the pool's setting.
    const after = await Promise.all(Array.from({ length: 12 }, () => queryRows<{ mode: string }>(t.db, setting)));
    expect(after.flat().every((r) => r.mode === "force_custom_plan")).toBe(true);
  });
});

describe("the drizzle internals queryPrepared relies on", () => {
  it("db._.session is a PostgresJsSession whose client is the postgres.js client (unsafe, reserve)", async () => {
    // postgres.js connects lazily: nothing here opens a connection.
    const client = postgres("postgres://127.0.0.1:1/never", { max: 1 });
    const db = drizzle(client);
    const upgrade = "drizzle-orm changed its internals: server/db/driver/ reads db._.session.client (a postgres.js Sql); adapt it";
    const session: unknown = (db as unknown as { _?: { session?: unknown } })._?.session;
    expect(is(session, PostgresJsSession), `${upgrade} (db._.session is no longer a PostgresJsSession)`).toBe(true);
    const inner = (session as { client?: { unsafe?: unknown; reserve?: unknown } }).client;
    expect(inner === client, `${upgrade} (session.client is no longer the postgres.js client)`).toBe(true);
    expect(typeof inner?.unsafe === "function" && typeof inner.reserve === "function", `${upgrade} (client.unsafe/reserve missing)`).toBe(true);
    await client.end();
  });
});
