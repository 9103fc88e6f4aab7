import type { TClaim } from "./claim-deliveries";

/**
 * The key of the deliveries that must go out one at a time, in the order they were claimed: one package's
 * deliveries to one endpoint. Null for an event of no package (test pings, endpoint events): nothing orders it.
 * The worker job and deliverDueWebhooks both chain on it.
 */
export function orderKey(claim: Pick<TClaim, "endpointId" | "packageId">): string | null {
  return claim.packageId === null ? null : `${claim.endpointId} ${claim.packageId}`;
}
