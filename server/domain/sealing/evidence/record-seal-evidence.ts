import type { Db } from "@/server/db/client";
import { packageEvidence } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import { serviceActor } from "@/server/domain/packages/package-actor";
import { logger } from "@/server/lib/logger";
import { describeFailure, isBelowLta, packageEvidenceColumns, type TFileEvidenceColumns } from "./file-evidence";
import { FIRST_UPGRADE_DELAY_MS } from "./jobs";

/**
 * In the transaction that completes the package: its evidence row (the weakest sealed file's level, time and
 * authority). When a TSA is configured but the seal fell short of B-LTA (no TSA answered: the package still
 * completes on time, at B-B), the audit trail records `package.evidence_degraded` naming what failed, and the
 * upgrade job is due FIRST_UPGRADE_DELAY_MS later.
 */
export async function recordSealEvidence(
  tx: Db,
  pkg: TPackageRow,
  input: { at: Date; files: readonly TFileEvidenceColumns[]; tsaConfigured: boolean; failures: readonly string[] },
): Promise<void> {
  const evidence = packageEvidenceColumns(input.files);
  const degraded = input.tsaConfigured && isBelowLta(evidence.level);
  const failure = describeFailure([...new Set(input.failures)].join("; ") || "the seal did not reach B-LTA");
  await tx.insert(packageEvidence).values({
    packageId: pkg.id,
    organisationId: pkg.organisationId,
    workspaceId: pkg.workspaceId,
    ...evidence,
    upgradeNextAttemptAt: degraded ? new Date(input.at.getTime() + FIRST_UPGRADE_DELAY_MS) : null,
    lastError: degraded ? failure : null,
    updatedAt: input.at,
  });
  if (!degraded) return;
  await auditChange(tx, serviceActor(pkg.organisationId, pkg.workspaceId), pkg, "package.evidence_degraded", { level: evidence.level, failure });
  logger().warn({ packageId: pkg.id, evidenceLevel: evidence.level, failure }, "sealed without a trusted time: no TSA answered; the upgrade job will retry");
}
