import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import { serviceActor } from "@/server/domain/packages/package-actor";
import { logger } from "@/server/lib/logger";

/**
 * Sealing stops retrying on its own (in the caller's transaction, which holds the row): `seal_failed_at` set,
 * no next attempt, no claim, the reason kept; the audit trail records `package.seal_failed`, and the error log
 * says that the package needs someone. The package stays IN_PROGRESS and shows `sealing.state: FAILED` on GET,
 * on its page (with "Retry sealing") and on the overview, until `retrySeal` asks for another round.
 */
export async function failSeal(tx: Db, pkg: TPackageRow, input: { at: Date; error: string; attempts: number; why: string }): Promise<void> {
  await tx
    .update(packages)
    .set({ sealFailedAt: input.at, sealNextAttemptAt: null, sealClaimToken: null, sealLastError: input.error })
    .where(eq(packages.id, pkg.id));
  await auditChange(tx, serviceActor(pkg.organisationId, pkg.workspaceId), pkg, "package.seal_failed", {
    attempts: input.attempts,
    error: input.error,
    why: input.why,
  });
  logger().error(
    { packageId: pkg.id, workspaceId: pkg.workspaceId, attempts: input.attempts, error: input.error, why: input.why },
    "sealing stopped: the package stays IN_PROGRESS until someone retries it from its page",
  );
}
