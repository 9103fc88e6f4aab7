/**
 * The sign-in throttle's housekeeping as declared jobs (server/lib/prune-job.ts): failures past the throttle's
 * window, and known addresses not signed in from for 30 days, deleted a batch per transaction. The throttle
 * already ignores such rows (./sign-in-throttle.ts); this only keeps the tables small, and no address is kept
 * longer than it is needed.
 */
import { signInFailures, signInKnownAddresses } from "@/server/db/schema";
import { definePruneJob } from "@/server/lib/prune-job";
import { KNOWN_ADDRESS_MS, SIGN_IN_WINDOW_MS } from "./sign-in-throttle";

export function signInThrottleJobs() {
  return {
    pruneFailures: definePruneJob({
      name: "sign-in-prune-failures",
      everyMs: 5 * 60_000,
      table: signInFailures,
      id: signInFailures.id,
      time: signInFailures.failedAt,
      cutoff: (at) => new Date(at.getTime() - SIGN_IN_WINDOW_MS),
    }),
    pruneKnownAddresses: definePruneJob({
      name: "sign-in-prune-known-addresses",
      everyMs: 60 * 60_000,
      table: signInKnownAddresses,
      id: signInKnownAddresses.id,
      time: signInKnownAddresses.signedInAt,
      cutoff: (at) => new Date(at.getTime() - KNOWN_ADDRESS_MS),
    }),
  };
}
