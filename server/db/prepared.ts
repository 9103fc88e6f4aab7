/**
 * Prepared queries for the hottest reads (the API key lookup, the packages list). drizzle builds a query's SQL
 * in JavaScript on every call, then maps every column of every row through its column classes (and a `Date`
 * per timestamp); for these reads that cost more CPU than the database spends running them.
 *
 * `hotQuery` takes both away: the SQL text is built once by drizzle (so tables, columns and conditions stay
 * typed and shared with the rest of the code), then each call sends it straight to the driver with the
 * placeholders filled in, and the driver's rows come back as they are — objects keyed by the select's aliases. The select therefore names every output column
 * (`hotColumns`) and formats what the caller needs as text in SQL (`isoText`), so no per-row mapping remains.
 *
 * Cached per `Db` object (a transaction is another object, so it gets its own), per `key`; the key must name
 * every choice that changes the SQL text (the values go in as placeholders, never into the key).
 */
import { is, Placeholder, SQL, sql } from "drizzle-orm";
import { PgDialect, type PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./client";

const cache = new WeakMap<Db, Map<string, unknown>>();

function preparedFor<T>(db: Db, key: string, build: () => T): T {
  let forDb = cache.get(db);
  if (!forDb) cache.set(db, (forDb = new Map()));
  let query = forDb.get(key) as T | undefined;
  if (query === undefined) {
    query = build();
    forDb.set(key, query);
  }
  return query;
}

/** A timestamp as the API writes it (`Date#toISOString`: UTC, milliseconds truncated as JavaScript does), or null. */
export function isoText(column: PgColumn | SQL): SQL<string | null> {
  return sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamp as milliseconds since the epoch (a number on both drivers), or null. */
export function epochMs(column: PgColumn | SQL): SQL<number | null> {
  return sql<number | null>`(extract(epoch from ${column}) * 1000)::float8`;
}

type TSelectable = PgColumn | SQL | SQL.Aliased;
/** A timestamp column's raw value differs between drivers: select it through `isoText` or `epochMs` (never). */
type TValueOf<C> = C extends PgColumn
  ? C["_"]["data"] extends Date
    ? never
    : C["_"]["data"] | (C["_"]["notNull"] extends true ? never : null)
  : C extends SQL<infer T>
    ? T
    : C extends SQL.Aliased<infer T>
      ? T
      : never;
/** The row a `hotQuery` returns for these columns: each alias, with its column's value as the driver gives it. */
export type THotRow<C extends Record<string, TSelectable>> = { [K in keyof C]: TValueOf<C[K]> };

/** A select list for `hotQuery`: every output column under its own name (`"a" as "name"`). */
export function hotColumns<C extends Record<string, TSelectable>>(columns: C): { [K in keyof C]: SQL.Aliased<TValueOf<C[K]>> } {
  return Object.fromEntries(Object.entries(columns).map(([name, c]) => [name, sql`${c}`.as(name)])) as never;
}

export type TDriverClient = {
  /** postgres.js (a pool, or a transaction's connection). */
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;
  /** PGlite (the database, or a transaction). */
  query?: (text: string, params: unknown[], options: { rowMode: "object" }) => Promise<{ rows: unknown[] }>;
};

const dialect = new PgDialect();

type TSlot = { name: string } | { value: unknown };
export type THotQuery<V, R> = (values: V) => Promise<R[]>;

/**
 * On the handle's object itself, not in a module-level map: the start script and Next's bundled routes load
 * separate copies of this module and share one handle (server/db/client.ts).
 */
const GENERIC_PLAN_CLIENT = Symbol.for("foliosign.genericPlanClient");
type TWithGenericPlanClient = { [GENERIC_PLAN_CLIENT]?: TDriverClient };

/**
 * Installs the pool a database handle's plan-stable hot queries run on (PostgreSQL: `plan_cache_mode =
 * force_generic_plan`, see server/db/client.ts). Without one (PGlite, or a transaction) they run where the
 * others do.
 */
export function installGenericPlanClient(db: Db, client: TDriverClient): void {
  (db as TWithGenericPlanClient)[GENERIC_PLAN_CLIENT] = client;
}

/**
 * `plan: "generic"` declares a statement plan-stable: its best plan does not depend on the values (equality
 * on a unique key, a workspace's counters, the newest page of a workspace or one status through its index),
 * so one generic plan per connection serves every call and PostgreSQL does not plan it again each time.
 * Never for a search or a per-member visibility filter: how many rows those match decides the plan.
 */
export type THotQueryOptions = { plan?: "custom" | "generic" };

/**
 * `build` returns a drizzle query (anything with `toSQL()`) or a `sql` template, built once per handle and
 * key. Only values that are placeholders or plain text, numbers and booleans may appear in it: they reach the
 * driver as they are.
 * A statement is prepared by the server on first use per connection (postgres.js names it by its text).
 */
export function hotQuery<V extends Record<string, unknown>, R>(db: Db, key: string, build: () => SQL | { toSQL(): { sql: string; params: unknown[] } }, options: THotQueryOptions = {}): THotQuery<V, R> {
  return preparedFor(db, key, () => {
    const built = build();
    const { sql: text, params } = is(built, SQL) ? dialect.sqlToQuery(built) : built.toSQL();
    const slots: TSlot[] = params.map((p) => (is(p, Placeholder) ? { name: (p as Placeholder).name as string } : { value: p }));
    for (const s of slots) {
      if ("value" in s && s.value !== null && !["string", "number", "boolean"].includes(typeof s.value)) {
        throw new Error(`hotQuery ${key}: a ${typeof s.value} parameter; use a placeholder or a text/number/boolean value`);
      }
    }
    const client = (options.plan === "generic" ? (db as TWithGenericPlanClient)[GENERIC_PLAN_CLIENT] : undefined) ?? (db as unknown as { _: { session: { client: TDriverClient } } })._.session.client;
    const fill = (values: V) => slots.map((s) => ("name" in s ? values[s.name] : s.value));
    if (client.unsafe) {
      const unsafe = client.unsafe.bind(client);
      return (values: V) => unsafe(text, fill(values), { prepare: true }) as Promise<R[]>;
    }
    const query = client.query!.bind(client);
    return async (values: V) => (await query(text, fill(values), { rowMode: "object" })).rows as R[];
  });
}
