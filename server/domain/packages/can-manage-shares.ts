import { can } from "@/server/domain/access/gates";
import type { TActor } from "@/server/domain/access/actor";
import type { TPackageRow } from "./find-package";

/**
 * Who may share a package or take a share back: its owner, or a member who sees every package anyway
 * (canViewAllPackages; an organisation owner holds it). A member who only sees it because it was shared with
 * them may not pass it on.
 */
export function canManageShares(actor: TActor, pkg: Pick<TPackageRow, "ownerUserId">): boolean {
  return pkg.ownerUserId === actor.user.id || can(actor, "canViewAllPackages");
}
