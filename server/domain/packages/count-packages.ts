import { and, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { packageCountDeltas, packageCounts } from "@/server/db/schema";
import type { TListPackagesQuery } from "./schemas";

/**
 * The exact number of live packages of a workspace — all, one status, or VIEWED — from the counters kept by
 * the triggers on `packages` (see `packageCounts` in the schema): the folded rows plus the deltas not folded
 * yet, summed in ONE statement, so one snapshot sees either a delta or its folded sum, never both or neither.
 * A few rows whatever the workspace's size, where `count(*)` reads every package.
 */
export async function countPackages(db: Db, workspaceId: string, status: TListPackagesQuery["status"]): Promise<number> {
  const folded = db
    .select({ n: packageCounts.n })
    .from(packageCounts)
    .where(and(eq(packageCounts.workspaceId, workspaceId), bucket(packageCounts, status)));
  const pending = db
    .select({ n: packageCountDeltas.delta })
    .from(packageCountDeltas)
    .where(and(eq(packageCountDeltas.workspaceId, workspaceId), bucket(packageCountDeltas, status)));
  const both = unionAll(folded, pending).as("counts");
  const [row] = await db.select({ total: sql<number>`coalesce(sum(${both.n}), 0)`.mapWith(Number) }).from(both);
  return row?.total ?? 0;
}

function bucket(t: typeof packageCounts | typeof packageCountDeltas, status: TListPackagesQuery["status"]) {
  if (status === "VIEWED") return and(eq(t.status, "IN_PROGRESS"), eq(t.viewed, true));
  return status ? eq(t.status, status) : undefined;
}
