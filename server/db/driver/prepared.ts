/**
 * Prepared statements (server/db/driver/, see index.ts): the hot reads (`hotQuery`) and the generic-plan pool
 * they may run on (`installGenericPlanClient`), every drizzle statement prepared per connection
 * (`preparingClient`), and writes built once (`builtWrite`).
 *
 * ## Hot reads (`hotQuery`)
 *
 * Prepared queries for the hottest reads (the API key lookup, the packages list). drizzle builds a query's SQL
 * in JavaScript on every call, then maps every column of every row through its column classes (and a `Date`
 * per timestamp); for these reads that cost more CPU than the database spends running them.
 *
 * `hotQuery` takes both away: the SQL text is built once by drizzle (so tables, columns and conditions stay
 * typed and shared with the rest of the code), then each call sends it straight to the driver with the
 * placeholders filled in, and the driver's rows come back as they are — objects keyed by the select's aliases. The select therefore names every output column
 * (`hotColumns`) and formats what the caller needs as text in SQL (`isoText`), so no per-row mapping remains.
 * Measured (bench/README.md, `bench:packages` round 3, item 1): 530 → 290–340 µs of CPU per list call in
 * process, and with it the list's requests/s reached 0.53 × the bare handler (target ≥ 0.5) with p50 at 1 M
 * ×1.04 of 10 k (target ≤ 2×).
 *
 * Cached per `Db` object (a transaction is another object, so it gets its own), per `key`; the key must name
 * every choice that changes the SQL text (the values go in as placeholders, never into the key).
 */
import { is, Placeholder, SQL, sql } from "drizzle-orm";
import { dialect, type Db } from "./rows";

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

export type TDriverClient = {
  /** postgres.js (a pool, or a transaction's connection). */
  unsafe?: (text: string, params: unknown[], options: { prepare: boolean }) => Promise<unknown[]>;
  /** PGlite (the database, or a transaction). */
  query?: (text: string, params: unknown[], options: { rowMode: "object" }) => Promise<{ rows: unknown[] }>;
};

/**
 * ## Every drizzle statement prepared per connection (`preparingClient`)
 *
 * drizzle runs an ordinary query through postgres.js unnamed (`prepare: false`), and postgres.js sends an unnamed
 * statement that has parameters as Parse/Describe first, waits for the description, then sends Bind/Execute:
 * two writes to the socket and two answers per statement. On this loopback VM a socket write is this process's
 * single largest cost: 46 % of a send's CPU samples in process were `writeBuffer` (bench/README.md, `bench:api`,
 * issue 26, "Two writes per statement"). Through this proxy over the postgres.js client handed to drizzle, a
 * statement with parameters is a named statement prepared per connection (postgres.js names it and remembers
 * it by its text and types, as it does for its own tagged queries): described once per connection, then one write
 * per run. The main pool plans every run for its values anyway (`plan_cache_mode = force_custom_plan`,
 * server/db/client.ts), so preparing changes no plan, only the trips. A transaction's and a savepoint's
 * connection are wrapped too. Statements without parameters (BEGIN, COMMIT, the credit sent with its COMMIT)
 * are left as they are: one write already; so are statements with many parameters (below).
 */
/**
 * A statement with more parameters is left unnamed: its text usually grows with its rows (a multi-row insert, an
 * `in (…)` list), and postgres.js keeps every statement it prepared for the life of the connection, so texts that
 * vary with the data would pile up on both sides.
 */
const PREPARED_PARAMETERS_MAX = 48;
type TPostgresClient = { unsafe: (...args: unknown[]) => unknown; begin?: (...args: unknown[]) => unknown; savepoint?: (...args: unknown[]) => unknown };

export function preparingClient<C extends object>(client: C): C {
  const own = client as unknown as TPostgresClient;
  const wrapScope =
    (open: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      // begin([options], fn) and savepoint([name], fn): the callback is the last argument.
      const fn = args[args.length - 1] as (scoped: object) => unknown;
      return open(...args.slice(0, -1), (scoped: object) => fn(preparingClient(scoped)));
    };
  // Built once per client, not on every property read: `unsafe` is read for every statement drizzle runs.
  const replaced = new Map<PropertyKey, unknown>([
    [
      "unsafe",
      (text: string, params?: unknown[], options?: Record<string, unknown>) =>
        own.unsafe(text, params, params && params.length > 0 && params.length <= PREPARED_PARAMETERS_MAX ? { ...options, prepare: true } : options),
    ],
  ]);
  if (typeof own.begin === "function") replaced.set("begin", wrapScope(own.begin));
  if (typeof own.savepoint === "function") replaced.set("savepoint", wrapScope(own.savepoint));
  return new Proxy(client, {
    get(target, property, receiver) {
      return replaced.has(property) ? replaced.get(property) : Reflect.get(target, property, receiver);
    },
  });
}

type TSlot = { name: string } | { value: unknown };
export type THotQuery<V, R> = (values: V) => Promise<R[]>;

/**
 * On the handle's object itself, not in a module-level map: the start script and Next's bundled routes load
 * separate copies of this module and share one handle (server/db/client.ts).
 */
export const GENERIC_PLAN_CLIENT = Symbol.for("foliosign.genericPlanClient");
export type TWithGenericPlanClient = { [GENERIC_PLAN_CLIENT]?: TDriverClient };

/**
 * Installs the pool a database handle's plan-stable hot queries run on (PostgreSQL: `plan_cache_mode =
 * force_generic_plan`, see server/db/client.ts). Without one (PGlite, or a transaction) they run where the
 * others do. Kept for a measured target (bench/README.md, `bench:packages` round 3, item 2): PostgreSQL spent
 * ~1.0 ms of CPU per list request, almost all planning (the key lookup 0.75 ms of planning for 0.03 ms of
 * execution, the page 0.45 ms for 0.1 ms); with these plans the list met requests/s ≥ 0.5 × bare (0.53).
 */
export function installGenericPlanClient(db: Db, client: TDriverClient): void {
  (db as TWithGenericPlanClient)[GENERIC_PLAN_CLIENT] = client;
}

/**
 * `plan: "generic"` declares a statement plan-stable: its best plan does not depend on the values (equality
 * on a unique key, a workspace's counters, the newest page of a workspace or one status through its index),
 * so one generic plan per connection serves every call and PostgreSQL does not plan it again each time.
 * Never for a per-member visibility filter, nor a search as such: how many rows those match decides the plan
 * (a search whose path was chosen from its remembered matches is two statements, one per path: search-paths.ts).
 */
export type THotQueryOptions = { plan?: "custom" | "generic" };

/**
 * `build` returns a drizzle query (anything with `toSQL()`) or a `sql` template, built once per handle and
 * key. Only values that are placeholders or plain text, numbers and booleans may appear in it: they reach the
 * driver as they are.
 * A statement is prepared by the server on first use per connection (postgres.js names it by its text).
 */
export function hotQuery<V extends Record<string, unknown>, R>(
  db: Db,
  key: string,
  build: () => SQL | { toSQL(): { sql: string; params: unknown[] } },
  options: THotQueryOptions = {},
): THotQuery<V, R> {
  return preparedFor(db, key, () => {
    const built = build();
    const { sql: text, params } = is(built, SQL) ? dialect.sqlToQuery(built) : built.toSQL();
    const slots: TSlot[] = params.map((p) => (is(p, Placeholder) ? { name: (p as Placeholder).name as string } : { value: p }));
    for (const s of slots) {
      if ("value" in s && s.value !== null && !["string", "number", "boolean"].includes(typeof s.value)) {
        throw new Error(`hotQuery ${key}: a ${typeof s.value} parameter; use a placeholder or a text/number/boolean value`);
      }
    }
    const client =
      (options.plan === "generic" ? (db as TWithGenericPlanClient)[GENERIC_PLAN_CLIENT] : undefined) ??
      (db as unknown as { _: { session: { client: TDriverClient } } })._.session.client;
    const fill = (values: V) => slots.map((s) => ("name" in s ? values[s.name] : s.value));
    if (client.unsafe) {
      const unsafe = client.unsafe.bind(client);
      return (values: V) => unsafe(text, fill(values), { prepare: true }) as Promise<R[]>;
    }
    const query = client.query!.bind(client);
    return async (values: V) => (await query(text, fill(values), { rowMode: "object" })).rows as R[];
  });
}

/**
 * ## Writes built once (`builtWrite`)
 *
 * drizzle builds an UPDATE's text in JavaScript on every call: the SET list and a RETURNING list of every
 * column of the table, each chunk through its `is()` checks. For the send's two row updates (the package, and
 * each invited session: `… returning *`) that took 0.5–0.65 ms of CPU per statement on this machine, 1.7 ms of a
 * two-recipient send's ~11 ms (bench/README.md, `bench:api`, issue 26, "The send's CPU in process"). And,
 * unprepared, postgres.js sends each such statement as Parse/Describe first, then Bind/Execute: two round trips.
 *
 * `builtWrite(key, build)` builds the statement once per process (its values as `sql.placeholder(name)`, so
 * each is still encoded by its column as drizzle does), then each call runs that text in the given database or
 * transaction through drizzle's own prepared query for its session: the placeholders filled and the RETURNING
 * rows mapped by drizzle exactly as the built query would (`Date`s and all). On postgres.js the statement is
 * prepared per connection (named by its text, as `hotQuery`'s): described once, then one round trip. On PGlite
 * it is the ordinary query. The text must not depend on the values: a value that changes the SQL (a null
 * written as a literal, a set column left out) needs its own key. No `$onUpdate` column may be touched (its
 * value would be frozen into the built text).
 */
type TBuilt = { query: { sql: string; params: unknown[] }; fields: unknown };

/**
 * A named placeholder where drizzle's types want the value itself (an UPDATE's SET: drizzle accepts a placeholder
 * there at run time and encodes the filled value by its column, but does not type it). For `builtWrite` only.
 */
export function valueSlot<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
type TPreparingSession = {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string,
    isResponseInArrayMode: boolean,
  ): { execute(values: Record<string, unknown>): Promise<unknown> };
};

export function builtWrite<V extends Record<string, unknown>, R>(
  key: string,
  build: (db: Db) => { toSQL(): { sql: string; params: unknown[] } },
): (db: Db, values: V) => Promise<R[]> {
  let built: TBuilt | undefined;
  return async (db, values) => {
    if (!built) {
      const query = build(db);
      const fields = (query as unknown as { config?: { returning?: unknown } }).config?.returning;
      if (!fields) throw new Error(`builtWrite ${key}: the statement must end with .returning()`);
      const { sql: text, params } = query.toSQL();
      built = { query: { sql: text, params }, fields };
    }
    const session = db._.session as unknown as TPreparingSession;
    return (await session.prepareQuery(built.query, built.fields, key, true).execute(values)) as R[];
  };
}
