/**
 * Transactions on postgres.js (server/db/driver/, see index.ts): the webhook worker's statements, prepared with
 * generic plans (`queryPrepared`) and its claim transaction in one round trip (`transactionInOneTrip`), and a
 * transaction's last statement sent with its COMMIT (`transactionEndingWith`, `endWithCommit`).
 */
import { is, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import { GENERIC_PLAN_CLIENT, type TWithGenericPlanClient } from "./prepared";
import { dialect, queryRows, type Db } from "./rows";

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
