import { sealDuePackages } from "@/server/domain/sealing/seal-due-packages";
import type { TJob } from "./worker";

/**
 * The sealing job (server/domain/sealing/): its claim is a declared job (`claimSealJob`, FOR UPDATE SKIP LOCKED),
 * but the seal itself runs after the claim commits and is fenced, so it has this small wrapper rather than
 * runDeclaredJob (which would hold the row lock across the whole seal). Failures are retried from the
 * package's own state (`seal_next_attempt_at`), not from an in-process backoff.
 */
export function createSealingJob(): TJob {
  return {
    name: "seal-packages",
    async run(handle, signal) {
      await sealDuePackages(handle.db, { signal });
    },
  };
}
