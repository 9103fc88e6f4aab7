/**
 * Rows and timestamps (server/db/driver/, see index.ts): the database handle's type, the rows of a raw query
 * whichever driver ran it, timestamps selected as text or numbers (the same on both drivers), and the typing of
 * the rows `hotQuery` (prepared.ts) returns.
 */
import { sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgColumn, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "../schema";

export type Schema = typeof schema;
/** A database or a transaction: domain functions accept either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Rows of a raw query, whichever driver ran it (postgres.js returns an array, PGlite `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
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

/** The one dialect the driver modules turn drizzle's SQL into text with. */
export const dialect = new PgDialect();
