/** The spec's displayed endpoint states, derived (never stored) from `enabled` and the failure counter. */
export const FAILING_THRESHOLD = 10;

export type TEndpointState = "Active" | "Paused" | "Failing";

export function endpointState(e: { enabled: boolean; consecutiveFailures: number }): TEndpointState {
  if (!e.enabled) return "Paused";
  return e.consecutiveFailures >= FAILING_THRESHOLD ? "Failing" : "Active";
}
