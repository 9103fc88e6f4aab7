import type { Db } from "@/server/db/client";
import { withEvents } from "@/server/domain/transaction";
import { findPackage } from "./find-package";
import type { TPackageActor } from "./package-actor";
import { performSend } from "./perform-send";
import { toPackageView } from "./package-view";
import type { TPackage, TPackageRef, TSendPackage } from "./schemas";

/**
 * Sends a package now, or schedules it (a future `sendAt`): one transaction with its audit event and its
 * outbox events. Also the scheduler's entry point for a due SCHEDULED package, with `serviceActor(…)`.
 * canSendPackages is the operation's gate (sendPackageOp, asserted before this runs); the scheduler's service
 * actor needs none, so this function does not check it again. Then visibility (404) → performSend's conditions.
 */
export async function sendPackage(db: Db, actor: TPackageActor, input: TPackageRef & TSendPackage): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    return performSend(tx, actor, pkg, input.sendAt, (o) => toPackageView(o.package, o.sessions, o.documents));
  });
}
