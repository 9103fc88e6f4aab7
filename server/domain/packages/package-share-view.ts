import { and, asc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/server/db/client";
import { packages, packageShares, users } from "@/server/db/schema";
import type { TPackageShare } from "./schemas";

/**
 * A package's shares as the package page shows them (the member, who shared it, when), oldest first; or the
 * one share with `userId`. The package is given as the row the caller found through `findPackage`, so the
 * workspace (and visibility) were already checked; the join repeats the workspace so this query stands on its
 * own too.
 */
export async function loadPackageShares(db: Db, pkg: { id: string; workspaceId: string }, userId?: string): Promise<TPackageShare[]> {
  const sharer = alias(users, "sharer");
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      sharedAt: packageShares.createdAt,
      sharerId: sharer.id,
      sharerName: sharer.name,
      sharerEmail: sharer.email,
    })
    .from(packageShares)
    .innerJoin(packages, eq(packages.id, packageShares.packageId))
    .innerJoin(users, eq(users.id, packageShares.userId))
    .leftJoin(sharer, eq(sharer.id, packageShares.sharedByUserId))
    .where(
      and(eq(packageShares.packageId, pkg.id), eq(packages.workspaceId, pkg.workspaceId), userId === undefined ? undefined : eq(packageShares.userId, userId)),
    )
    .orderBy(asc(packageShares.createdAt), asc(packageShares.id));
  return rows.map((r) => ({
    userId: r.userId,
    name: r.name,
    email: r.email,
    sharedAt: r.sharedAt.toISOString(),
    sharedBy: r.sharerId ? { userId: r.sharerId, name: r.sharerName ?? "", email: r.sharerEmail ?? "" } : null,
  }));
}
