import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, packageShares, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { auditChange } from "@/server/domain/audit/audit-change";
import { canManageShares } from "./can-manage-shares";
import { findPackage } from "./find-package";
import { loadPackageShares } from "./package-share-view";
import type { TPackageRef, TPackageShare, TSharePackage } from "./schemas";

export const SHARE_FORBIDDEN = "Only the package's owner or a member who can view all packages can share it";

/**
 * Shares a package with a member so they see it without canViewAllPackages (visible-packages.ts). Checked in
 * this order: the actor sees the package (404), may share it (403, canManageShares), the target is a current
 * member of the package's organisation — every member may work in each of its workspaces, so that is the
 * workspace's membership; invited members who have not set a password yet count — (422 on `userId`), and is
 * not the owner (400). Any status, ended packages included: finished packages are what people need to look
 * up. Sharing again is idempotent: the existing share is answered with `created: false`, no second row and no
 * second audit event. The package row is locked first, so two shares of one package apply one after the other.
 */
export async function sharePackage(db: Db, actor: TActor, input: TPackageRef & TSharePackage): Promise<{ share: TPackageShare; created: boolean }> {
  return db.transaction(async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (!canManageShares(actor, pkg)) throw errors.forbidden(SHARE_FORBIDDEN);
    const [member] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .where(and(eq(users.id, input.userId), isNull(users.deletedAt), eq(memberships.organisationId, pkg.organisationId)));
    if (!member) throw errors.validation({ userId: ["Not a member of this organisation"] });
    if (member.id === pkg.ownerUserId) throw errors.badRequest("The package's owner already sees it; choose another member");
    const [inserted] = await tx
      .insert(packageShares)
      .values({ id: newId("psh"), packageId: pkg.id, userId: member.id, sharedByUserId: actor.user.id, createdAt: now() })
      .onConflictDoNothing({ target: [packageShares.packageId, packageShares.userId] })
      .returning({ id: packageShares.id });
    if (inserted) await auditChange(tx, actor, pkg, "package.shared", { userId: member.id, email: member.email });
    const [share] = await loadPackageShares(tx, pkg, member.id);
    return { share: share!, created: inserted !== undefined };
  });
}
