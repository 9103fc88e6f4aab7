/**
 * For the tests that read the claim (claim-deliveries.ts): its plan as run, a node of it, and the everyday claim
 * run alone.
 */
import type { SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { transactionInOneTrip } from "@/server/db/driver";
import { explainPlan, type TPlanNode } from "@/server/test/query-plan";
import { claimsFromRows, claimStatements, type TClaimOptions } from "@/server/domain/webhooks/delivery/claim-deliveries";

/** The first node of `node`'s plan tree (itself included) that `match` accepts. */
export const subtree = (node: TPlanNode, match: (n: TPlanNode) => boolean): TPlanNode | undefined =>
  match(node) ? node : (node.Plans ?? []).map((p) => subtree(p, match)).find(Boolean);

/** A claim statement's plan as run (EXPLAIN ANALYZE), inside a transaction then rolled back: nothing stays claimed. */
export async function claimPlan(db: Db, claim: SQL): Promise<TPlanNode> {
  return explainPlan(db, claim, { analyze: true });
}

/** The everyday claim at `at` alone (no hand-over to the other): the ids it claimed, or null when it handed over. */
export async function everydayClaimIds(db: Db, at: Date, opts: TClaimOptions): Promise<string[] | null> {
  const statements = claimStatements(opts, at);
  const [, rows] = (await transactionInOneTrip(db, [statements.lock, statements.claim])) as [unknown, unknown[]];
  return claimsFromRows(rows, statements.leaseEndsAt)?.map((c) => c.id) ?? null;
}
