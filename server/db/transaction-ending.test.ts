/**
 * transactionEndingWith / endWithCommit (server/db/driver/transactions.ts, issue 26): on PostgreSQL the outermost
 * transaction may end with one statement sent together with its COMMIT. It runs after everything the work did,
 * even what the work did after registering it; when it fails nothing of the transaction is committed and
 * `refused(error)` is thrown; a savepoint, a plain `db.transaction` and PGlite cannot be ended this way (the
 * caller runs the statement itself). The package credit's use of it is tested in server/domain/packages/credit-with-commit.test.ts.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { useTestDb } from "@/server/test/db";
import { endWithCommit, transactionEndingWith } from "./driver";

const t = useTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);
const rows = async () =>
  (
    await queryRows<{ package_id: string; last_sequence: number }>(t.db, sql`select package_id, last_sequence from package_event_sequences order by package_id`)
  ).map((r) => `${r.package_id}:${r.last_sequence}`);
const insert = (id: string, n = 1) => sql`insert into package_event_sequences (package_id, last_sequence) values (${id}, ${n})`;

describe("transactionEndingWith", () => {
  it("without an ending it is an ordinary transaction: commits, or rolls back and throws", async () => {
    expect(await transactionEndingWith(t.db, async (tx) => (await tx.execute(insert("pkg_a")), "done"))).toBe("done");
    const failed = await transactionEndingWith(t.db, async (tx) => {
      await tx.execute(insert("pkg_b"));
      throw new Error("no");
    }).catch((e: Error) => e.message);
    expect(failed).toBe("no");
    expect(await rows()).toEqual(["pkg_a:1"]);
  });

  it.runIf(onPostgres)("sends the ending last — after what the work did once it was registered — and commits it with the rest", async () => {
    const result = await transactionEndingWith(t.db, async (tx) => {
      await tx.execute(insert("pkg_a"));
      expect(endWithCommit(tx, sql`update package_event_sequences set last_sequence = last_sequence * 10`, (e) => e)).toBe(true);
      await tx.execute(insert("pkg_b", 2));
      return "view";
    });
    expect(result).toBe("view");
    // The ending ran after pkg_b's insert: both rows were multiplied.
    expect(await rows()).toEqual(["pkg_a:10", "pkg_b:20"]);
  });

  it.runIf(onPostgres)("a failing ending: nothing committed, refused(error) thrown, the pool usable", async () => {
    const refused = new Error("refused");
    let seen: unknown;
    const error = await transactionEndingWith(t.db, async (tx) => {
      await tx.execute(insert("pkg_a"));
      endWithCommit(tx, sql`select 1 / count(*) from package_event_sequences where package_id = 'none'`, (e) => ((seen = e), refused));
      return "view";
    }).catch((e: unknown) => e);
    expect(error).toBe(refused);
    expect((seen as { code?: string }).code).toBe("22012");
    expect(await rows()).toEqual([]);
    const again = await Promise.all(Array.from({ length: 12 }, () => queryRows<{ one: number }>(t.db, sql`select 1 as one`)));
    expect(again.every((r) => r[0]!.one === 1)).toBe(true);
  });

  it.runIf(onPostgres)("one ending per transaction", async () => {
    const error = await transactionEndingWith(t.db, async (tx) => {
      endWithCommit(tx, sql`select 1`, (e) => e);
      endWithCommit(tx, sql`select 2`, (e) => e);
    }).catch((e: Error) => e.message);
    expect(error).toMatch(/already ends with another statement/);
  });

  it("cannot end a savepoint, a plain db.transaction, the database itself, or any transaction on PGlite", async () => {
    const seen: boolean[] = [];
    const query = sql`select 1`;
    await transactionEndingWith(t.db, async (tx) => {
      await transactionEndingWith(tx, async (savepoint) => {
        seen.push(endWithCommit(savepoint, query, (e) => e));
      });
    });
    await t.db.transaction(async (tx) => {
      seen.push(endWithCommit(tx, query, (e) => e));
    });
    seen.push(endWithCommit(t.db, query, (e) => e));
    expect(seen).toEqual([false, false, false]);
    if (!onPostgres) {
      await transactionEndingWith(t.db, async (tx) => {
        expect(endWithCommit(tx, query, (e) => e)).toBe(false);
      });
    }
  });
});
