import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packageShares, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { canManageShares } from "./can-manage-shares";
import { findPackage } from "./find-package";
import type { TPackageShareRef, TRemovedShare } from "./schemas";
import { SHARE_FORBIDDEN } from "./share-package";

/**
 * Takes a share back: the member no longer sees the package (unless they own it, hold canViewAllPackages or a
 * key of theirs created it). The same rights as sharing (404, then 403); 404 `Share not found` when the
 * package is not shared with that user.
 */
export async function unsharePackage(db: Db, actor: TActor, input: TPackageShareRef): Promise<TRemovedShare> {
  const { packageId, userId } = input;
  return db.transaction(async (tx) => {
    const pkg = await findPackage(tx, actor, packageId, { forUpdate: true });
    if (!canManageShares(actor, pkg)) throw errors.forbidden(SHARE_FORBIDDEN);
    const [removed] = await tx
      .delete(packageShares)
      .where(and(eq(packageShares.packageId, pkg.id), eq(packageShares.userId, userId)))
      .returning({ userId: packageShares.userId });
    if (!removed) throw errors.notFound("Share");
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, removed.userId));
    await auditChange(tx, actor, pkg, "package.unshared", { userId: removed.userId, email: user?.email ?? null });
    return { userId: removed.userId, removed: true as const };
  });
}
