import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { actorLabel } from "./actor-label";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findPackage } from "./find-package";
import { loadPackageView } from "./load-package-view";
import type { TPackageActor } from "./package-actor";
import { recordPackageEvent } from "./record-package-event";
import type { TPackage, TPackageRef } from "./schemas";

/** IN_PROGRESS → ON_HOLD (recipients cannot sign; no reminders); PACKAGE_ON_HOLD. 409 in any other state. */
export async function holdPackage(db: Db, actor: TPackageActor, input: TPackageRef): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (pkg.status !== "IN_PROGRESS") throw errors.conflict("Only IN_PROGRESS packages can be put on hold");
    if (pkg.sealRequestedAt) throw errors.conflict("Every recipient has signed and the package is being sealed; it can no longer be put on hold");
    const at = now();
    const [held] = await tx.update(packages).set({ status: "ON_HOLD", holdStartedAt: at, updatedAt: at }).where(eq(packages.id, pkg.id)).returning();
    await recordPackageEvent(tx, held!, "PACKAGE_ON_HOLD", { heldBy: actorLabel(actor) });
    await auditChange(tx, actor, held!, "package.held");
    return loadPackageView(tx, held!);
  });
}
