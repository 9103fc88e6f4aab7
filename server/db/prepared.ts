/**
 * Prepared queries for the hottest reads (the API key lookup, the packages list): drizzle builds a query's SQL
 * in JavaScript on every call, which costs more CPU than the database spends running these statements. A
 * prepared query is built once per database handle and shape, then executed with `sql.placeholder` values.
 *
 * Cached per `Db` object (a transaction is another object, so it gets its own), per `key`; the key must name
 * every choice that changes the SQL text (the values go in as placeholders, never into the key).
 */
import type { Db } from "./client";

const cache = new WeakMap<Db, Map<string, unknown>>();

export function preparedFor<T>(db: Db, key: string, build: (name: string) => T): T {
  let forDb = cache.get(db);
  if (!forDb) cache.set(db, (forDb = new Map()));
  let query = forDb.get(key) as T | undefined;
  if (query === undefined) {
    query = build(key.replace(/[^a-z0-9_]/gi, "_"));
    forDb.set(key, query);
  }
  return query;
}
