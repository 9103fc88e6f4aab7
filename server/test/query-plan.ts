/**
 * A statement's plan for tests that read plans: EXPLAIN (FORMAT JSON) of it in a transaction that is rolled back
 * (EXPLAIN ANALYZE runs the statement: nothing it writes stays), with planner settings set for that transaction
 * only (`{ enable_seqscan: "off" }` prices sequential scans out, so a plan shows whether an index can serve it).
 */
import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "../db/client";

/** The fields of an EXPLAIN (FORMAT JSON) node the tests read. */
export type TPlanNode = {
  "Node Type": string;
  Operation?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  /** What an index scan looks up through the index (a scan of the whole index with a filter has none). */
  "Index Cond"?: string;
  "Parent Relationship"?: string;
  "Subplan Name"?: string;
  "Actual Loops"?: number;
  Plans?: TPlanNode[];
};

/** The plan's root; `analyze` runs the statement (EXPLAIN ANALYZE). The driver gives the JSON parsed, or as text. */
export async function explainPlan(db: Db, query: SQL, opts: { analyze?: boolean; settings?: Record<string, string> } = {}): Promise<TPlanNode> {
  let plan: TPlanNode | undefined;
  await db
    .transaction(async (tx) => {
      for (const [name, value] of Object.entries(opts.settings ?? {})) await tx.execute(sql`select set_config(${name}, ${value}, true)`);
      const explain = opts.analyze ? sql`explain (analyze, format json) ${query}` : sql`explain (format json) ${query}`;
      const [row] = await queryRows<{ "QUERY PLAN": [{ Plan: TPlanNode }] | string }>(tx, explain);
      const json = row!["QUERY PLAN"];
      plan = (typeof json === "string" ? (JSON.parse(json) as [{ Plan: TPlanNode }]) : json)[0].Plan;
      tx.rollback();
    })
    .catch((err: unknown) => {
      if (!plan) throw err;
    });
  return plan!;
}

/** Every node of a plan, the root first. */
export const planNodes = (node: TPlanNode): TPlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/** The plan's index scans as "index: condition" (a whole-index scan, which looks nothing up, as "index: none"). */
export const indexLookups = (node: TPlanNode): string[] =>
  planNodes(node)
    .filter((n) => n["Index Name"])
    .map((n) => `${n["Index Name"]}: ${n["Index Cond"] ?? "none"}`);
