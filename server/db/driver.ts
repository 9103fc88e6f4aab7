/**
 * THE driver-level module: the only file that may touch drizzle's session (`db._.session`), `sqlToQuery`,
 * prepared statements or the drivers' `unsafe` (server/test/driver-fence.test.ts fails on any other file).
 * Everything else is plain drizzle, or calls one of the fast paths below; each is kept because a figure
 * recorded in bench/README.md shows it is needed, cited where it is defined:
 * - `hotQuery`: the packages list, its count and the API-key lookup (bench:packages, round 3);
 * - `queryPrepared`: the webhook worker's statements and the outbox write (bench:webhooks);
 * - `transactionInOneTrip`: the worker's claim transaction (bench:webhooks, round 3);
 * - `copyRowsIn`: the database file store's chunk writes, as binary COPY (bench:uploads, issue 26);
 * - `copyRowsOut`: the database file store's chunk reads, as binary COPY (bench:uploads, issue 26);
 * - `transactionEndingWith` / `endWithCommit`: the package credit sent with its COMMIT (bench:api, issue 26);
 * - `builtWrite`: the send's package and session updates, built once and prepared (bench:api, issue 26);
 * - `preparingClient`: every drizzle statement with parameters prepared per connection (bench:api, issue 26).
 * And the generic-plan pool those plan-stable reads run on (`installGenericPlanClient`; opened by
 * server/db/client.ts), kept for the measured packages-list targets (bench:packages, round 3, item 2).
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
import { finished } from "node:stream/promises";
import { getTableName, is, Placeholder, SQL, sql } from "drizzle-orm";
import { PgDialect, PgTransaction, type PgColumn, type PgDatabase, type PgQueryResultHKT, type PgTable } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import type * as schema from "./schema";

export type Schema = typeof schema;
/** A database or a transaction: domain functions accept either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Rows of a raw query, whichever driver ran it (postgres.js returns an array, PGlite `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

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
const GENERIC_PLAN_CLIENT = Symbol.for("foliosign.genericPlanClient");
type TWithGenericPlanClient = { [GENERIC_PLAN_CLIENT]?: TDriverClient };

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
 * ## The webhook worker's statements (`queryPrepared`, `transactionInOneTrip`)
 *
 * The delivery worker's hot statements (claim, pre-send check, outcomes) as NAMED prepared statements on
 * PostgreSQL, run with GENERIC plans. `db.execute()` sends every parameterised statement unprepared, and
 * postgres.js then asks the server to describe it first — two round trips, and a fresh parse and plan, for
 * each claim and each outcome batch. Prepared, a statement is parsed and described once per connection and
 * then runs in one round trip. By default the server still plans a prepared statement afresh for its first
 * five runs on each connection (a custom plan: ~3 ms for the claim) — with a pool of connections, most runs
 * of a young process. These statements reach rows by key or through partial indexes whose predicates are
 * written in the statement, never in a parameter, so the generic plan is the same plan: each is sent with
 * `set local plan_cache_mode = force_generic_plan` in its transaction (measured: −20 % wall time per claim,
 * −10–20 % per outcome statement). Nothing outlives the transaction; the rest of the app keeps the default.
 * On PGlite (in process, no round trips, no prepared statements) it is the ordinary query.
 *
 * The figures that keep this path (bench/README.md, `bench:webhooks`): preparing the worker's statements took
 * the drain from ~2,400 to ~2,800 deliveries/s ("What changed in this round (throughput)"); their generic plans
 * cut the claim's wall time by 20–25 % and the outcome's by 10–20 % (round 3); preparing the outbox's statements
 * took the 100-endpoint fan-out commit's p99 from 12.6–16.6 to 9.5–11.7 ms (round 3, target p99 ≤ 20 ms).
 */

const GENERIC_PLANS = "set local plan_cache_mode = force_generic_plan";

type TUnsafe = { unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown> };

/**
 * `genericPlans: false` (the outbox, which runs in its caller's transaction): prepared only, with the server's
 * default plan choice, and nothing set in the caller's transaction.
 */
export async function queryPrepared<T>(db: Db, query: SQL, opts: { genericPlans?: boolean } = {}): Promise<T[]> {
  const session: unknown = db._.session;
  if (!is(session, PostgresJsSession)) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = (session as unknown as { client: TUnsafe }).client;
  if (opts.genericPlans === false) return (await client.unsafe(text, params, { prepare: true })) as T[];
  if (!is(db, PgTransaction)) {
    // Outside a transaction, ONE autocommit statement on the generic-plan pool (its connections plan generic
    // already): no BEGIN, SET and COMMIT around it, and no transaction left open while the client is
    // descheduled between them — on a loaded machine those open transactions held back the xmin horizon, so
    // the claim's index scans kept visiting dead entries (bench/README.md, bench:peers, issue 22).
    const generic = (db as TWithGenericPlanClient)[GENERIC_PLAN_CLIENT] as TUnsafe | undefined;
    if (generic) return (await generic.unsafe(text, params, { prepare: true })) as T[];
    return (await transactionInOneTrip(db, [query]))[0] as T[];
  }
  // In the caller's transaction: the setting, then the statement, pipelined on its connection.
  const [, rows] = await Promise.all([client.unsafe(GENERIC_PLANS, [], { prepare: false }), client.unsafe(text, params, { prepare: true })]);
  return rows as T[];
}

type TReserved = TUnsafe & { release(): void };
type TReservable = TUnsafe & { reserve(): Promise<TReserved> };

/**
 * One short transaction in ONE round trip on PostgreSQL: `begin`, the statements (prepared) and `commit` are
 * written together on a reserved connection (postgres.js pipelines them) and run in order, each after the
 * previous one has finished, so a statement still sees what an earlier one did or waited for (the claim's
 * advisory lock). `db.transaction()` would wait for `begin`, then for the statements, then for `commit`: three
 * round trips for the worker's hottest transaction. Generic plans, as above. If any statement fails the
 * transaction is aborted, the `commit` then rolls it back, and the first error is thrown. Returns the rows of
 * each statement. On PGlite (in process, no round trips) it is an ordinary transaction.
 * Its own gain was not measured apart (bench/README.md, `bench:webhooks` round 3: "within the noise alone" in an
 * earlier round); it is part of round 3's worker, whose drain rose from 1,537–2,225 to 2,277–3,107 /s.
 */
export async function transactionInOneTrip(db: Db, queries: readonly SQL[]): Promise<unknown[][]> {
  const session: unknown = db._.session;
  if (!is(session, PostgresJsSession)) {
    return db.transaction(async (tx) => {
      const results: unknown[][] = [];
      for (const q of queries) results.push(await queryRows<unknown>(tx, q));
      return results;
    });
  }
  const client = (session as unknown as { client: TReservable }).client;
  const conn = await client.reserve();
  try {
    const sent = [
      conn.unsafe("begin", [], { prepare: false }),
      conn.unsafe(GENERIC_PLANS, [], { prepare: false }),
      ...queries.map((q) => {
        const { sql: text, params } = dialect.sqlToQuery(q);
        return conn.unsafe(text, params, { prepare: true });
      }),
      conn.unsafe("commit", [], { prepare: false }),
    ];
    const settled = await Promise.allSettled(sent);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    return settled.slice(2, -1).map((s) => (s as PromiseFulfilledResult<unknown[]>).value);
  } finally {
    conn.release();
  }
}

/**
 * ## A transaction's last statement, sent with its COMMIT (`transactionEndingWith`, `endWithCommit`)
 *
 * `db.transaction()` on postgres.js sends `commit` only once the work's promise has settled, i.e. after the last
 * statement's answer came back and this process got round to it. A statement that locks a row every concurrent
 * transaction needs (the package credit's `UPDATE organisations SET packages_used = …`, issue 26) therefore holds
 * that lock from its execution, through the trip back to this process (on a loaded event loop, 16 requests in
 * flight: milliseconds), to the COMMIT: at 16 concurrent sends 0.52–0.68 connections waited on it on average,
 * every sampled wait that UPDATE (bench/README.md, `bench:api`, "Lock waits (≤ 0.5) not met").
 *
 * `transactionEndingWith(db, work)` is `db.transaction(work)`, except that the work may end it with ONE
 * statement (`endWithCommit(tx, query, refused)`) that is sent without awaiting its answer, as the transaction's
 * very last statement: after `work` has resolved (whatever it did after registering it), and in the same write as
 * postgres.js's own `commit` (both are queued on the transaction's connection in the same turn of the event loop,
 * the statement first: postgres.js pipelines them). PostgreSQL runs the statement, then the COMMIT, with no trip
 * through this process between them, so the row lock lasts the commit only. Nothing is added: the same statements,
 * the same COMMIT, no second COMMIT and no warning.
 *
 * The statement must FAIL when it must not take effect (the credit: a division by its matched-row count), never
 * merely match no row: by the time its answer arrives the COMMIT has already run. A failed statement aborts the
 * transaction, so PostgreSQL answers the pipelined COMMIT with ROLLBACK (not an error): nothing of the work is
 * written, and `transactionEndingWith` throws `refused(error)` (the 402) instead of returning the work's result.
 * Any other failure (the COMMIT's own, a lost connection) is thrown as it is. The caller's after-commit work
 * (`withEvents`' wake-up) runs only when this returns, i.e. after a real commit.
 *
 * Only the outermost transaction opened by `transactionEndingWith` on postgres.js can be ended this way:
 * `endWithCommit` returns false on PGlite (in process: no trip to save), in a savepoint (the scheduler's send:
 * the outer transaction goes on, and must see the refusal), and in any transaction it did not open; the caller
 * then runs the statement itself, as before. Nothing else reaches postgres.js's transaction.
 * Kept for a measured target (bench/README.md, `bench:api`, issue 26, "The credit sent with the COMMIT").
 */
type TEnding = { query: SQL; refused: (error: unknown) => unknown };
/** The transactions `transactionEndingWith` opened, each with the statement that ends it once one is registered. */
const endings = new WeakMap<object, TEnding | null>();
type TSettled = { ok: true } | { ok: false; error: unknown };

export async function transactionEndingWith<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const session: unknown = db._.session;
  if (!is(session, PostgresJsSession) || is(db, PgTransaction)) return db.transaction((tx) => work(tx));
  let ending: TEnding | null | undefined;
  let last: Promise<TSettled> | undefined;
  let result: T;
  try {
    result = await db.transaction(async (tx) => {
      endings.set(tx, null);
      let value: T;
      try {
        value = await work(tx);
      } finally {
        ending = endings.get(tx);
        endings.delete(tx);
      }
      if (ending) {
        // Queued now, on this connection; postgres.js queues its `commit` right after this function resolves,
        // within the same turn of the event loop (no I/O between), so both leave in one write, in this order.
        // With its values written in as literals and unnamed: postgres.js sends a statement with parameters that
        // this connection has not prepared yet as Parse/Describe first and holds everything queued behind it
        // (the `commit` too) until the server has described it — one more trip with the lock held.
        const { sql: text } = dialect.sqlToQuery(sql`${ending.query}`.inlineParams());
        const client = (tx._.session as unknown as { client: TUnsafe }).client;
        last = client.unsafe(text, [], { prepare: false }).then(
          (): TSettled => ({ ok: true }),
          (error: unknown): TSettled => ({ ok: false, error }),
        );
      }
      return value;
    });
  } catch (error) {
    // The statement's failure reached postgres.js before its `commit` was queued (not expected: it needs a
    // read): postgres.js rolled back and threw it.
    const settled = last && (await last);
    if (ending && settled && !settled.ok && settled.error === error) throw ending.refused(error);
    throw error;
  }
  const settled = last && (await last);
  if (ending && settled && !settled.ok) throw ending.refused(settled.error);
  return result;
}

/**
 * Ends `tx` (a transaction `transactionEndingWith` opened on postgres.js) with `query`, sent with its COMMIT;
 * `refused` maps the statement's failure to what the transaction then throws. Returns false where that cannot be
 * done (PGlite, a savepoint, another transaction): run the statement yourself. One ending per transaction; its
 * values (text and numbers only) are written into its text as literals (drizzle's inline parameters).
 */
export function endWithCommit(tx: Db, query: SQL, refused: (error: unknown) => unknown): boolean {
  if (!endings.has(tx)) return false;
  for (const value of dialect.sqlToQuery(query).params) {
    if (typeof value !== "string" && typeof value !== "number") throw new Error(`endWithCommit: a ${typeof value} value cannot be written as a literal`);
  }
  if (endings.get(tx)) throw new Error("endWithCommit: this transaction already ends with another statement");
  endings.set(tx, { query, refused });
  return true;
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

/**
 * ## Rows with large `bytea` values (`copyRowsIn`)
 *
 * Inserts rows through `COPY <table> (<columns>) FROM … (FORMAT binary)`, so a `bytea` value travels as its own
 * bytes and never as a JS string. Through an ordinary insert both drivers send a `bytea` as hex text
 * (postgres.js serialises every parameter as text; PGlite 0.5 builds that text one byte at a time): a 256 KiB
 * chunk of the database file store became a 512 KiB string, which V8 promotes while its query is in flight and
 * frees only at its next full GC — a 200 MB upload grew the server's RSS by +76…+166 MB (bench/README.md,
 * `bench:uploads`, issue 26). postgres.js: `COPY … FROM STDIN` through the query's `writable()` stream;
 * PGlite: `COPY … FROM '/dev/blob'` with the bytes given as the query's `blob` (read by the WASM side from an
 * ArrayBuffer, no string). Works on a database or inside a transaction (its connection).
 *
 * Values by column type: text (string), integer (number), bytea (Uint8Array), timestamptz (Date). Anything else
 * throws: extend `binaryField` first.
 *
 * postgres.js caveat: its COPY stream stops listening once the data is sent, so an error the server reports
 * after that (a constraint violated by the rows, the connection lost) never settles the stream — callers copy
 * rows that violate nothing (fresh keys); errors before the data (no such table) reject as usual.
 */
const COPY_SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** PostgreSQL's epoch (2000-01-01T00:00:00Z) in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;

/** One field: its length (−1 for null), then its bytes (a bytea's own, not copied). */
function binaryField(column: PgColumn, value: unknown): Buffer[] {
  const type = column.getSQLType();
  const length = Buffer.alloc(4);
  if (value === null || value === undefined) {
    length.writeInt32BE(-1);
    return [length];
  }
  let body: Buffer;
  if (type === "text" && typeof value === "string") body = Buffer.from(value, "utf8");
  else if (type === "integer" && typeof value === "number") {
    body = Buffer.alloc(4);
    body.writeInt32BE(value);
  } else if (type === "bytea" && value instanceof Uint8Array) body = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  else if (type === "timestamp with time zone" && value instanceof Date) {
    body = Buffer.alloc(8);
    body.writeBigInt64BE(BigInt(value.getTime() - PG_EPOCH_MS) * 1000n);
  } else throw new Error(`copyRowsIn: column ${column.name} (${type}) cannot take ${typeof value}`);
  length.writeInt32BE(body.byteLength);
  return [length, body];
}

/** The whole COPY binary stream for these rows: signature, flags, header extension, tuples, trailer. */
function binaryCopyData(columns: readonly PgColumn[], rows: readonly (readonly unknown[])[]): Buffer {
  const parts: Buffer[] = [COPY_SIGNATURE, Buffer.alloc(8)];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(columns.length);
    parts.push(count, ...columns.flatMap((c, i) => binaryField(c, row[i])));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

type TCopyClient = {
  unsafe?: (text: string) => { writable(): Promise<NodeJS.WritableStream> };
  query?: (text: string, params: unknown[], options: { blob: Blob }) => Promise<unknown>;
};

export async function copyRowsIn(db: Db, table: PgTable, columns: readonly PgColumn[], rows: readonly (readonly unknown[])[]): Promise<void> {
  const target = `${dialect.escapeName(getTableName(table))} (${columns.map((c) => dialect.escapeName(c.name)).join(", ")})`;
  const data = binaryCopyData(columns, rows);
  const client = (db as unknown as { _: { session: { client: TCopyClient } } })._.session.client;
  if (client.unsafe) {
    const stream = await client.unsafe(`copy ${target} from stdin with (format binary)`).writable();
    stream.end(data);
    await finished(stream);
    return;
  }
  // PGlite reads the blob only through its arrayBuffer(): given the bytes themselves, not a Blob (a native copy
  // V8 does not see, then a second copy for arrayBuffer()), a 200 MB upload's 800 chunks no longer pile up
  // +200 MB of memory outside the heap until a GC happens to run (bench/README.md, bench:uploads, issue 26).
  const bytes =
    data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data.buffer : data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const blob = { arrayBuffer: async () => bytes } as unknown as Blob;
  await client.query!(`copy ${target} from '/dev/blob' with (format binary)`, [], { blob });
}

/**
 * ## Reading rows with large `bytea` values (`copyRowsOut`)
 *
 * Runs `COPY (<select>) TO … (FORMAT binary)` and decodes the rows, so a `bytea` comes back as its own bytes and
 * never as a JS string. Through a select both drivers return a `bytea` as hex text (neither asks for binary
 * results): a 256 KiB chunk of the database file store came back as a 512 KiB string, and a 200 MB download grew
 * the server's RSS by +161…+192 MB (bench/README.md, `bench:uploads`, issue 26). postgres.js: `COPY … TO STDOUT`
 * through the query's `readable()` stream, read to its end before returning (a COPY left half read would keep
 * its connection paused); PGlite: `COPY … TO '/dev/blob'`, the bytes handed back as the result's `blob`.
 *
 * COPY takes no parameters: the select's values are written into its text as literals (drizzle's inline
 * parameters: strings quoted with `'` doubled, numbers as digits). Each row is an array in the select's column
 * order, decoded by `columns` (the same types as `copyRowsIn`: text, integer, bytea, timestamptz; a bytea is a
 * Buffer viewing the COPY's data, no copy). Same postgres.js caveat as `copyRowsIn`: an error the server reports
 * after the COPY started (the connection lost mid-read) does not end the stream.
 */
type TCopyOutClient = {
  unsafe?: (text: string) => { readable(): Promise<AsyncIterable<Buffer> & { _read(size: number): void }> };
  query?: (text: string, params: unknown[]) => Promise<{ blob?: Blob }>;
};

function fieldFromBinary(column: PgColumn, bytes: Buffer): unknown {
  const type = column.getSQLType();
  if (type === "bytea") return bytes;
  if (type === "text") return bytes.toString("utf8");
  if (type === "integer") return bytes.readInt32BE(0);
  if (type === "timestamp with time zone") return new Date(Number(bytes.readBigInt64BE(0) / 1000n) + PG_EPOCH_MS);
  throw new Error(`copyRowsOut: column ${column.name} (${type}) cannot be decoded`);
}

/** The tuples of a COPY binary stream (signature, flags, header extension, tuples, trailer), decoded by `columns`. */
function rowsFromBinaryCopy(data: Buffer, columns: readonly PgColumn[]): unknown[][] {
  if (!data.subarray(0, COPY_SIGNATURE.length).equals(COPY_SIGNATURE)) throw new Error("copyRowsOut: not a binary COPY stream");
  let at = COPY_SIGNATURE.length + 4;
  at += 4 + data.readInt32BE(at);
  const rows: unknown[][] = [];
  for (;;) {
    const count = data.readInt16BE(at);
    at += 2;
    if (count === -1) return rows;
    if (count !== columns.length) throw new Error(`copyRowsOut: ${count} fields in a row, ${columns.length} columns expected`);
    const row: unknown[] = [];
    for (const column of columns) {
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) row.push(null);
      else {
        row.push(fieldFromBinary(column, data.subarray(at, at + length)));
        at += length;
      }
    }
    rows.push(row);
  }
}

export async function copyRowsOut(db: Db, query: SQL, columns: readonly PgColumn[]): Promise<unknown[][]> {
  for (const value of dialect.sqlToQuery(query).params) {
    if (typeof value !== "string" && typeof value !== "number") throw new Error(`copyRowsOut: a ${typeof value} value cannot be written as a literal`);
  }
  const { sql: select } = dialect.sqlToQuery(sql`${query}`.inlineParams());
  const client = (db as unknown as { _: { session: { client: TCopyOutClient } } })._.session.client;
  if (client.unsafe) {
    const stream = await client.unsafe(`copy (${select}) to stdout with (format binary)`).readable();
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(part);
    // postgres.js 3.4.9 pauses the socket when the stream's buffer is full and resumes it only from the stream's
    // read(): when the COPY's last data and its end arrived in that same burst, nothing calls read() again and the
    // connection never reads the COPY's completion — every later query on it hangs. Resume it once the stream ended.
    stream._read(0);
    return rowsFromBinaryCopy(parts.length === 1 ? parts[0]! : Buffer.concat(parts), columns);
  }
  const { blob } = await client.query!(`copy (${select}) to '/dev/blob' with (format binary)`, []);
  if (!blob) throw new Error("copyRowsOut: PGlite returned no blob");
  return rowsFromBinaryCopy(Buffer.from(await blob.arrayBuffer()), columns);
}
