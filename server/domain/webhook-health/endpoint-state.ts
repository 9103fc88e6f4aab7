/**
 * The spec's displayed endpoint states (Active / Paused / Failing): the engine's state — the rule the outbox
 * uses to skip an endpoint — under the labels the app shows. Failing lasts from the tenth consecutive failure
 * until the endpoint is re-enabled, even if a later success resets the counter.
 */
import { endpointState as engineState, type TEndpointState as TEngineState } from "@/server/domain/webhooks/endpoint-view";

export type TEndpointState = "Active" | "Paused" | "Failing";

const LABELS: Record<TEngineState, TEndpointState> = { ACTIVE: "Active", PAUSED: "Paused", FAILING: "Failing" };

export function endpointState(e: { enabled: boolean; failingSince: Date | null }): TEndpointState {
  return LABELS[engineState(e)];
}
