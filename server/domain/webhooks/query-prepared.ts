/**
 * The delivery worker's hot statements (claim, pre-send check, outcomes) as NAMED prepared statements on
 * PostgreSQL. `db.execute()` sends every parameterised statement unprepared, and postgres.js then asks the
 * server to describe it first — two round trips, and a fresh parse and plan, for each claim and each outcome
 * batch. Prepared, a statement is parsed and described once per connection and then runs in one round trip
 * (its plan cached by the server's usual rules). Same text and parameters as before; on PGlite (in process,
 * no round trips) it is the ordinary query.
 */
import type { SQL } from "drizzle-orm";
import { is } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import { queryRows, type Db } from "@/server/db/client";

const dialect = new PgDialect();

type TUnsafe = { unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown> };

export async function queryPrepared<T>(db: Db, query: SQL): Promise<T[]> {
  const session: unknown = db._.session;
  if (!is(session, PostgresJsSession)) return queryRows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = (session as unknown as { client: TUnsafe }).client;
  return (await client.unsafe(text, params, { prepare: true })) as T[];
}
