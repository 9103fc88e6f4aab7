import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findPackage } from "@/server/domain/packages/find-package";
import { loadPackageView } from "@/server/domain/packages/load-package-view";
import type { TPackageActor } from "@/server/domain/packages/package-actor";
import type { TPackage, TPackageRef } from "@/server/domain/packages/schemas";
import { withEvents } from "@/server/domain/transaction";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";

/**
 * "Retry sealing" for a package whose sealing stopped (FAILED, see fail-seal.ts): due again now with a fresh
 * set of SEAL_MAX_ATTEMPTS attempts; the last error stays visible until an attempt replaces it. The commit wakes
 * the workers. 409 for a package whose sealing has not stopped (nothing to retry: it is pending, retrying on its
 * own, or the package is not being sealed).
 */
export async function retrySeal(db: Db, actor: TPackageActor, input: TPackageRef): Promise<TPackage> {
  return withEvents(db, async (tx) => {
    const pkg = await findPackage(tx, actor, input.packageId, { forUpdate: true });
    if (pkg.status !== "IN_PROGRESS" || !pkg.sealRequestedAt || !pkg.sealFailedAt) {
      throw errors.conflict("Sealing of this package has not stopped: there is nothing to retry");
    }
    const at = now();
    const [due] = await tx
      .update(packages)
      .set({ sealFailedAt: null, sealAttempts: 0, sealNextAttemptAt: at, sealClaimToken: null })
      .where(eq(packages.id, pkg.id))
      .returning();
    await auditChange(tx, actor, due!, "package.seal_retried", { previousAttempts: pkg.sealAttempts, lastError: pkg.sealLastError });
    return loadPackageView(tx, due!);
  });
}
