import { and, eq, sql, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { hotQuery } from "@/server/db/driver";
import { packageCountDeltas, packageCounts } from "@/server/db/schema";
import type { TListPackagesQuery } from "./schemas";

export type TBucket = "any" | "viewed" | "one";

export function bucketOf(status: TListPackagesQuery["status"]): TBucket {
  return status === "VIEWED" ? "viewed" : status ? "one" : "any";
}

/**
 * The exact number of live packages of a workspace — all, one status, or VIEWED — from the counters kept by
 * the triggers on `packages` (see `packageCounts` in the schema): the folded rows plus the deltas not folded
 * yet, summed in ONE statement, so one snapshot sees either a delta or its folded sum, never both or neither.
 * A few rows whatever the workspace's size, where `count(*)` reads every package.
 */
export async function countPackages(db: Db, workspaceId: string, status: TListPackagesQuery["status"]): Promise<number> {
  const kind = bucketOf(status);
  const query = hotQuery<Record<string, unknown>, { total: number }>(db, `count_packages_${kind}`, () => sql`select ${countersTotal(db, kind)} as total`, {
    plan: "generic", // a few counter rows by workspace, whatever the values
  });
  const [row] = await query(kind === "one" ? { workspaceId, status } : { workspaceId });
  return row?.total ?? 0;
}

/**
 * The counters' total as a scalar subquery (an int), with placeholders `workspaceId` and, for one status,
 * `status`: the packages list puts it in the statement that reads the page.
 */
export function countersTotal(db: Db, kind: TBucket): SQL<number> {
  const folded = db
    .select({ n: packageCounts.n })
    .from(packageCounts)
    .where(and(eq(packageCounts.workspaceId, sql.placeholder("workspaceId")), bucket(packageCounts, kind)));
  const pending = db
    .select({ n: packageCountDeltas.delta })
    .from(packageCountDeltas)
    .where(and(eq(packageCountDeltas.workspaceId, sql.placeholder("workspaceId")), bucket(packageCountDeltas, kind)));
  const both = unionAll(folded, pending).as("counts");
  return sql<number>`(${db.select({ total: sql`coalesce(sum(${both.n}), 0)::int` }).from(both)})`;
}

function bucket(t: typeof packageCounts | typeof packageCountDeltas, kind: TBucket) {
  if (kind === "viewed") return and(eq(t.status, "IN_PROGRESS"), eq(t.viewed, true));
  return kind === "one" ? eq(t.status, sql.placeholder("status")) : undefined;
}
