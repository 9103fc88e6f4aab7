import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { assertCanActOn } from "./assert-can-act-on";
import { auditChange } from "@/server/domain/audit/audit-change";
import { cancelOpenSessions } from "./cancel-open-sessions";
import { findPackage } from "./find-package";
import { recordPackageEvent } from "./record-package-event";
import type { TPackageRef } from "./schemas";

const ANNOUNCED = new Set(["SCHEDULED", "IN_PROGRESS", "ON_HOLD"]);

/**
 * Soft delete (later reads are 404). A scheduled, in-progress or on-hold package raises PACKAGE_DELETED, then
 * SESSION_CANCELLED for every open session; a draft or an ended package raises nothing. The externalId is
 * released (kept in the audit event) so the caller may use it again. Any package but a DRAFT needs
 * canSendPackages (403; assert-can-act-on.ts): a draft is its preparer's to discard.
 */
export async function deletePackage(db: Db, actor: TActor, input: TPackageRef): Promise<{ id: string; deleted: true }> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    assertCanActOn(actor, pkg);
    const at = now();
    const [deleted] = await tx
      .update(packages)
      .set({ deletedAt: at, externalId: null, sendAt: null, updatedAt: at })
      .where(eq(packages.id, pkg.id))
      .returning();
    if (ANNOUNCED.has(pkg.status)) {
      await recordPackageEvent(tx, deleted!, "PACKAGE_DELETED", { deletedBy: actor.user.email });
      await cancelOpenSessions(tx, deleted!, at);
    }
    await auditChange(tx, actor, deleted!, "package.deleted", { status: pkg.status, externalId: pkg.externalId });
    return { id: pkg.id, deleted: true as const };
  });
}
