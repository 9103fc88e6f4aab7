/**
 * The spec's displayed endpoint states, derived (never stored) by the same rule the outbox uses to skip an
 * endpoint: Paused when disabled, Failing from the tenth consecutive failure until it is re-enabled (a later
 * success resets the counter but does not end Failing — only Resume does), Active otherwise.
 */
export type TEndpointState = "Active" | "Paused" | "Failing";

export function endpointState(e: { enabled: boolean; failingSince: Date | null }): TEndpointState {
  if (!e.enabled) return "Paused";
  return e.failingSince ? "Failing" : "Active";
}
