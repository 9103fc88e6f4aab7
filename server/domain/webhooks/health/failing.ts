/**
 * An endpoint's health, in one place. Spec (Limits): "Consecutive failures: 10 makes the endpoint Failing".
 * - each failed attempt counts one, a success sets the count back to 0 (delivery/record-attempt-outcome.ts,
 *   delivery/record-delivered-outcomes.ts); a paused endpoint counts nothing;
 * - the tenth consecutive failure sets `failing_since` (`failingSinceAfterAttempt`);
 * - a Failing (or paused) endpoint is sent no new events (`receivesEventsSql`, events/record-event.ts);
 * - re-enabling it (`enabled: true`) clears both (`CLEARED_HEALTH`, endpoints/update-endpoint.ts);
 * - it reads as FAILING (`endpointState`) and is counted as such in the metrics (`isFailingSql`).
 */
import { sql, type SQL } from "drizzle-orm";
import { webhookEndpoints } from "@/server/db/schema";

/** Spec: ten consecutive failed attempts make the endpoint Failing. */
export const FAILING_AFTER_FAILURES = 10;

export type TEndpointState = "ACTIVE" | "PAUSED" | "FAILING";

export function endpointState(row: { enabled: boolean; failingSince: Date | null }): TEndpointState {
  if (!row.enabled) return "PAUSED";
  return row.failingSince ? "FAILING" : "ACTIVE";
}

/**
 * The new `failing_since` of the endpoint row aliased `x` after one attempt: set at this attempt when it is the
 * FAILING_AFTER_FAILURES-th failure in a row, otherwise unchanged.
 */
export function failingSinceAfterAttempt(ok: boolean, atIso: string): SQL {
  return sql`case
          when not ${ok}::boolean and x.failing_since is null and x.consecutive_failures + 1 >= ${FAILING_AFTER_FAILURES}::int
          then ${atIso}::timestamptz else x.failing_since end`;
}

/** The endpoint row aliased `e` is sent new events: enabled and not Failing. */
export const receivesEventsSql = sql`e.enabled and e.failing_since is null`;

/** A Failing endpoint (enabled, `failing_since` set), over the webhook_endpoints table. */
export const isFailingSql = sql`${webhookEndpoints.enabled} and ${webhookEndpoints.failingSince} is not null`;

/** What re-enabling an endpoint writes: the count back to 0, not Failing. */
export const CLEARED_HEALTH = { consecutiveFailures: 0, failingSince: null } as const;
