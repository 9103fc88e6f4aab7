/**
 * preparingClient (server/db/driver/prepared.ts, issue 26): on PostgreSQL every drizzle statement with parameters is a
 * statement prepared per connection (one write per run instead of Parse/Describe, then Bind/Execute), in a
 * transaction and a savepoint too; statements with many parameters are left unnamed, so texts that grow with the
 * data do not pile up. pg_prepared_statements lists what the session's connection has prepared; each check runs
 * inside one transaction, so it reads the connection that ran the statements.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows, type Db } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);

async function preparedTexts(tx: Db): Promise<string[]> {
  return (await queryRows<{ statement: string }>(tx, sql`select statement from pg_prepared_statements`)).map((r) => r.statement);
}

describe.runIf(onPostgres)("preparingClient", () => {
  it("prepares a statement with parameters on the transaction's connection, and in a savepoint", async () => {
    const marker = `m${Date.now().toString(36)}`;
    await t.db.transaction(async (tx) => {
      const [row] = await queryRows<{ n: number }>(tx, sql`select ${41}::int + 1 as n, ${marker}::text as marker`);
      expect(row!.n).toBe(42);
      await tx.transaction(async (inner) => {
        await queryRows(inner, sql`select ${marker}::text as in_savepoint`);
      });
      const texts = await preparedTexts(tx);
      expect(texts).toContain("select $1::int + 1 as n, $2::text as marker");
      expect(texts).toContain("select $1::text as in_savepoint");
    });
  });

  it("leaves a statement with more than 48 parameters unnamed", async () => {
    const values = Array.from({ length: 49 }, (_, i) => sql`${i}::int`);
    const many = sql`select greatest(${sql.join(values, sql`, `)}) as top`;
    const few = sql`select greatest(${sql.join(values.slice(0, 48), sql`, `)}) as top`;
    await t.db.transaction(async (tx) => {
      expect((await queryRows<{ top: number }>(tx, many))[0]!.top).toBe(48);
      expect((await queryRows<{ top: number }>(tx, few))[0]!.top).toBe(47);
      const texts = (await preparedTexts(tx)).filter((text) => text.startsWith("select greatest("));
      expect(texts.map((text) => text.split("$").length - 1)).toEqual([48]);
    });
  });
});
