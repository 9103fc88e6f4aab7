import type { Db } from "@/server/db/client";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { evidenceConfig } from "./evidence-config";
import { improveClaimedEvidence, type TEvidenceOptions, type TEvidenceOutcome } from "./improve-claimed-evidence";
import { claimEvidenceRenewalJob, claimEvidenceUpgradeJob, type TEvidenceMode } from "./jobs";

export type TEvidenceRun = { packageId: string; mode: TEvidenceMode; outcome: TEvidenceOutcome };

/**
 * Claims and handles due evidence work, one package after the other, at most `max` (default 10) per call:
 * pending upgrades first, then renewals. The worker calls it on every tick; tests call it to run the jobs.
 * Nothing is claimed while no TSA is configured.
 */
export async function improveDueEvidence(db: Db, opts: { max?: number; signal?: AbortSignal; options?: TEvidenceOptions } = {}): Promise<TEvidenceRun[]> {
  const options = opts.options ?? {};
  const config = options.evidence === undefined ? evidenceConfig() : options.evidence;
  if (!config) return [];
  const runs: TEvidenceRun[] = [];
  const jobs = [claimEvidenceUpgradeJob, claimEvidenceRenewalJob(options.renewalDays ?? env().EVIDENCE_RENEWAL_DAYS)];
  for (const job of jobs) {
    while (runs.length < (opts.max ?? 10)) {
      if (opts.signal?.aborted) return runs;
      const claimed = await runDueItem(db, job, { at: now(), skip: [] });
      if (!claimed) break;
      if ("error" in claimed) throw claimed.error;
      runs.push({
        packageId: claimed.item.id,
        mode: claimed.item.mode,
        outcome: await improveClaimedEvidence(db, claimed.item, { ...options, evidence: config }),
      });
    }
  }
  return runs;
}
