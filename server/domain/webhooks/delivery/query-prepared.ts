/**
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
 */
import type { SQL } from "drizzle-orm";
import { is } from "drizzle-orm";
import { PgDialect, PgTransaction } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import { queryRows, type Db } from "@/server/db/client";

const dialect = new PgDialect();
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
  if (!is(db, PgTransaction)) return (await transactionInOneTrip(db, [query]))[0] as T[];
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
