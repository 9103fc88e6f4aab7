import { actingNeedsSendPermission } from "@/common/send-permission";
import { assertCan } from "@/server/domain/access/gates";
import type { TPackageRow } from "./find-package";
import { isServiceActor, type TPackageActor } from "./package-actor";

/**
 * The state-dependent half of the rule in common/send-permission.ts, for actions whose need depends on the
 * package (PATCH, delete, transfer, corrections): a DRAFT needs no permission, any other status needs
 * canSendPackages (403 `Missing permission: canSendPackages`). Called right after the package is found, so the
 * order is visibility (404) → permission (403) → the action's own state checks. The service is never refused.
 */
export function assertCanActOn(actor: TPackageActor, pkg: Pick<TPackageRow, "status">): void {
  if (isServiceActor(actor) || !actingNeedsSendPermission(pkg.status)) return;
  assertCan(actor, "canSendPackages");
}
