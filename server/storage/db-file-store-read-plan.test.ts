/**
 * Issue 26: a download must not depend on the planner. Each read batch was `index >= $2 order by index limit 4`
 * with the hex encoding in the select list; a plan that is not an ordered index walk (a bitmap or sequential
 * scan and a sort, which is what a never-analyzed table of a fresh install got) hex-encoded every remaining
 * chunk of the file to keep four, so a 100 MB download was quadratic. This runs EXPLAIN ANALYZE on exactly the
 * store's batch query (`chunkBatchQuery`), on a table PostgreSQL has never analyzed (a file of its own, so a
 * database of its own whose chunks table nothing else wrote), under the default settings and with the planner
 * limited to each scan method in turn, and asserts that no node of any plan produces more than one batch of
 * rows. It fails on the old query (the bitmap and sequential plans produce every chunk from the batch's start
 * to the end of the blob: 20 and 12 rows).
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { storedFiles } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { chunkBatchQuery, createDbFileStore } from "./create-db-file-store";
import { pieces, testBytes } from "./file-store-contract";

const t = useTestDb();
const CHUNK = 16 * 1024;
const store = createDbFileStore({ chunkBytes: CHUNK });

describe.skipIf(!process.env.DATABASE_URL)("database backend on PostgreSQL: the read batch is bounded whatever the plan", () => {
  type TPlanNode = { "Node Type": string; "Actual Rows": number; "Actual Loops": number; Plans?: TPlanNode[] };
  const produced = (node: TPlanNode): { type: string; rows: number }[] => [
    { type: node["Node Type"], rows: node["Actual Rows"] * node["Actual Loops"] },
    ...(node.Plans ?? []).flatMap(produced),
  ];
  const scanMethods: Record<string, string[]> = {
    default: [],
    "index scan only": ["enable_bitmapscan = off", "enable_seqscan = off"],
    "bitmap scan only": ["enable_indexscan = off", "enable_indexonlyscan = off", "enable_seqscan = off"],
    "sequential scan only": ["enable_indexscan = off", "enable_indexonlyscan = off", "enable_bitmapscan = off"],
  };

  it("never produces more than 4 rows at any node, for any scan method, at any batch", async () => {
    // 20 chunks: a multi-batch blob, and fewer rows than autovacuum's analyze threshold (50), so it stays unanalyzed.
    await store.put("docs/big", pieces(testBytes(CHUNK * 20)));
    const [file] = await t.db.select({ blobId: storedFiles.blobId }).from(storedFiles);
    const stats = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from pg_stats where tablename = 'stored_file_chunks'`);
    expect(stats[0]!.n).toBe(0);
    const seen: Record<string, number> = {};
    for (const [method, settings] of Object.entries(scanMethods)) {
      for (const from of [0, 8]) {
        const plan = await t.db.transaction(async (tx) => {
          for (const setting of settings) await tx.execute(sql.raw(`set local ${setting}`));
          const [row] = await queryRows<{ "QUERY PLAN": [{ Plan: TPlanNode }] }>(
            tx,
            sql`explain (analyze, format json) ${chunkBatchQuery(tx, file!.blobId, from).getSQL()}`,
          );
          return row!["QUERY PLAN"][0].Plan;
        });
        const nodes = produced(plan);
        seen[`${method} from ${from}`] = Math.max(...nodes.map((n) => n.rows));
      }
    }
    expect(seen).toEqual({
      "default from 0": 4,
      "default from 8": 4,
      "index scan only from 0": 4,
      "index scan only from 8": 4,
      "bitmap scan only from 0": 4,
      "bitmap scan only from 8": 4,
      "sequential scan only from 0": 4,
      "sequential scan only from 8": 4,
    });
  });
});
