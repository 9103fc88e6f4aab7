/**
 * How an endpoint and a delivery read through the API: declared shapes built from rows, never raw rows
 * (the secret, its ciphertext and the lease columns never leave the server).
 */
import type { webhookDeliveries, webhookEndpoints } from "@/server/db/schema";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { endpointState } from "@/server/domain/webhooks/health/failing";

type TEndpointRow = typeof webhookEndpoints.$inferSelect;
type TDeliveryRow = typeof webhookDeliveries.$inferSelect;

export function toEndpointView(row: TEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events as TEventName[],
    enabled: row.enabled,
    description: row.description,
    state: endpointState(row),
    consecutiveFailures: row.consecutiveFailures,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `test`: the delivery carries a sample sent with "Send test event" (from the app or the API), not a real event. */
export function toDeliveryView(row: TDeliveryRow, test = false) {
  const queued = row.status === "PENDING" || row.status === "FAILED";
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event as TEventName,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.lastResponseStatus,
    responseBody: row.lastResponseBody,
    error: row.lastError,
    durationMs: row.lastDurationMs,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: queued ? row.nextAttemptAt.toISOString() : null,
    completedAt: row.completedAt?.toISOString() ?? null,
    test,
  };
}
