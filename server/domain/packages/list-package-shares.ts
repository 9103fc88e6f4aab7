import type { Db } from "@/server/db/client";
import type { TActor } from "@/server/domain/access/actor";
import { canManageShares } from "./can-manage-shares";
import { findPackage } from "./find-package";
import { loadPackageShares } from "./package-share-view";
import type { TPackageShareList } from "./schemas";

/**
 * Whom a package is shared with, oldest share first, for anyone who sees the package (404 otherwise);
 * `canManage` tells the page whether to offer adding and removing.
 */
export async function listPackageShares(db: Db, actor: TActor, packageId: string): Promise<TPackageShareList> {
  const pkg = await findPackage(db, actor, packageId);
  return { shares: await loadPackageShares(db, pkg), canManage: canManageShares(actor, pkg) };
}
