import { and, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { preparedFor } from "@/server/db/prepared";
import { packageCountDeltas, packageCounts } from "@/server/db/schema";
import type { TListPackagesQuery } from "./schemas";

type TBucket = "any" | "viewed" | "one";

/**
 * The exact number of live packages of a workspace — all, one status, or VIEWED — from the counters kept by
 * the triggers on `packages` (see `packageCounts` in the schema): the folded rows plus the deltas not folded
 * yet, summed in ONE statement, so one snapshot sees either a delta or its folded sum, never both or neither.
 * A few rows whatever the workspace's size, where `count(*)` reads every package. Prepared once per kind of
 * filter (server/db/prepared.ts): the packages list runs it on every request.
 */
export async function countPackages(db: Db, workspaceId: string, status: TListPackagesQuery["status"]): Promise<number> {
  const kind: TBucket = status === "VIEWED" ? "viewed" : status ? "one" : "any";
  const [row] = await countQuery(db, kind).execute(kind === "one" ? { workspaceId, status } : { workspaceId });
  return row?.total ?? 0;
}

function countQuery(db: Db, kind: TBucket) {
  return preparedFor(db, `count_packages_${kind}`, (name) => {
    const folded = db
      .select({ n: packageCounts.n })
      .from(packageCounts)
      .where(and(eq(packageCounts.workspaceId, sql.placeholder("workspaceId")), bucket(packageCounts, kind)));
    const pending = db
      .select({ n: packageCountDeltas.delta })
      .from(packageCountDeltas)
      .where(and(eq(packageCountDeltas.workspaceId, sql.placeholder("workspaceId")), bucket(packageCountDeltas, kind)));
    const both = unionAll(folded, pending).as("counts");
    return db.select({ total: sql<number>`coalesce(sum(${both.n}), 0)`.mapWith(Number) }).from(both).prepare(name);
  });
}

function bucket(t: typeof packageCounts | typeof packageCountDeltas, kind: TBucket) {
  if (kind === "viewed") return and(eq(t.status, "IN_PROGRESS"), eq(t.viewed, true));
  return kind === "one" ? eq(t.status, sql.placeholder("status")) : undefined;
}
