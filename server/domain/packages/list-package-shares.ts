import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { canManageShares } from "./can-manage-shares";
import { findPackage } from "./find-package";
import { loadPackageShares } from "./package-share-view";
import type { TPackageRef, TPackageShareList } from "./schemas";

/**
 * Whom a package is shared with, oldest share first, for anyone who sees the package (404 otherwise);
 * `canManage` tells the page whether to offer adding and removing.
 */
export async function listPackageShares(db: Db, actor: TActor, input: TPackageRef): Promise<TPackageShareList> {
  const pkg = await findPackage(db, actor, input.packageId);
  return { shares: await loadPackageShares(db, pkg), canManage: canManageShares(actor, pkg) };
}
