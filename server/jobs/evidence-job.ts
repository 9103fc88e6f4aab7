import { improveDueEvidence } from "@/server/domain/sealing/evidence/improve-due-evidence";
import type { TJob } from "./worker";

/**
 * The evidence jobs (server/domain/sealing/evidence/): upgrading seals made while no TSA answered, and renewing
 * B-LTA seals before their newest document time-stamp's TSA certificate expires. Like sealing, the claim is a
 * declared job but the TSA work runs after it commits, fenced by a claim token, hence this small wrapper.
 */
export function createEvidenceJob(): TJob {
  return {
    name: "seal-evidence",
    async run(handle, signal) {
      await improveDueEvidence(handle.db, { signal });
    },
  };
}
