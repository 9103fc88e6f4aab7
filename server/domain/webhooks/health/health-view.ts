import type { TEndpointHealth } from "./get-endpoint-health";

/** The dashboard figures as JSON (dates as ISO strings). */
export function toHealthView(h: TEndpointHealth) {
  return {
    id: h.id,
    url: h.url,
    description: h.description,
    events: h.events,
    state: h.state,
    consecutiveFailures: h.consecutiveFailures,
    failingSince: h.failingSince?.toISOString() ?? null,
    createdAt: h.createdAt.toISOString(),
    deliveryCount24h: h.deliveryCount24h,
    attemptCount24h: h.attemptCount24h,
    successRate24h: h.successRate24h,
    p50Ms: h.p50Ms,
    p95Ms: h.p95Ms,
    lastAttempt: h.lastAttempt ? { at: h.lastAttempt.at.toISOString(), responseStatus: h.lastAttempt.responseStatus, error: h.lastAttempt.error } : null,
  };
}
