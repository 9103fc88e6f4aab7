/**
 * Writes the result of one attempt — fenced by the claim token — as ONE statement (atomic by itself, and it
 * holds a connection and the endpoint's row lock for a single round trip, which is what keeps throughput up):
 * - on a failure the endpoint row is locked first (`FOR UPDATE`, the same order as a pause), so `enabled` is
 *   current; a success needs no lock (it is DELIVERED whatever the endpoint's state, and resets a non-zero
 *   counter with an ordinary row update), so successes to one endpoint do not queue behind each other;
 * - everything hangs on the queue row still holding our lease (`webhook_queue … where claim_token = <ours>`):
 *   it is deleted (final outcome) or given its next attempt with the lease cleared (FAILED); when another worker
 *   has taken it over after our lease expired (or it was released or deleted), nothing at all is written and
 *   "stale" is returned — a late worker can never overwrite the new owner's result, nor touch the endpoint's
 *   counter or the attempt log. Then the delivery record is written once;
 * - DELIVERED on 2xx; otherwise EXHAUSTED after the ninth attempt or at once for a target refused at send time
 *   (private address), else FAILED with the next attempt on the retry table;
 * - endpoint health: a success resets the consecutive-failure counter, a failure increments it and the tenth
 *   makes the endpoint Failing (health/failing.ts). A paused endpoint counts nothing and its failed delivery is dropped
 *   (EXHAUSTED "endpoint paused") rather than retried;
 * - the attempt is logged with status, body (≤ 1,000 chars), error, duration and remote address.
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import type { TDeliveryStatus } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { PAUSED_ERROR, type TClaim } from "./claim-deliveries";
import { failingSinceAfterAttempt } from "@/server/domain/webhooks/health/failing";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { queryPrepared } from "@/server/db/driver";
import { retryDelayMs } from "./retry-schedule";

export type TAttemptResult = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
  remoteAddress: string | null;
  retryAfterMs: number | null;
  /** Refused before sending for a reason retries cannot fix (private address at send time). */
  permanent?: boolean;
  requestHeaders?: Record<string, string>;
  startedAt: Date;
};

export type TOutcome = { kind: "stale" } | { kind: "recorded"; status: TDeliveryStatus; nextAttemptAt: Date | null };

export async function recordAttemptOutcome(
  db: Db,
  claim: Pick<TClaim, "id" | "token" | "attempt" | "endpointId">,
  result: TAttemptResult,
  opts: { random?: () => number } = {},
): Promise<TOutcome> {
  const at = now();
  const final = Boolean(result.permanent) || claim.attempt >= WEBHOOK_LIMITS.maxAttempts;
  const retryAt = final || result.ok ? null : new Date(at.getTime() + retryDelayMs(claim.attempt, { retryAfterMs: result.retryAfterMs, random: opts.random }));
  const atIso = at.toISOString();
  const rows = await queryPrepared<{ status: TDeliveryStatus }>(
    db,
    sql`
    with ep as (
      select id, enabled from webhook_endpoints where id = ${claim.endpointId} ${result.ok ? sql`` : sql`for update`}
    ), verdict as (
      select ep.id as endpoint_id, ep.enabled,
        case when ${result.ok}::boolean then 'DELIVERED'
             when not ep.enabled or ${final}::boolean then 'EXHAUSTED'
             else 'FAILED' end as status
      from ep
    ), dequeued as (
      delete from webhook_queue q using verdict v
      where q.delivery_id = ${claim.id} and q.claim_token = ${claim.token} and v.status <> 'FAILED'
      returning q.delivery_id
    ), requeued as (
      update webhook_queue q set attempts = ${claim.attempt}::int, next_attempt_at = ${retryAt?.toISOString() ?? null}::timestamptz,
        claim_token = null, lease_attempt = null, claimed_at = null, locked_until = null
      from verdict v
      where q.delivery_id = ${claim.id} and q.claim_token = ${claim.token} and v.status = 'FAILED'
      returning q.delivery_id
    ), lease as (
      select delivery_id as id from dequeued union all select delivery_id from requeued
    ), d as (
      update webhook_deliveries w set
        status = v.status,
        attempts = ${claim.attempt}::int,
        last_attempt_at = ${result.startedAt.toISOString()}::timestamptz,
        last_response_status = ${result.status}::int,
        last_response_body = ${result.body}::text,
        last_error = case when not ${result.ok}::boolean and not v.enabled then ${PAUSED_ERROR} else ${result.error}::text end,
        last_duration_ms = ${result.durationMs}::int,
        updated_at = ${atIso}::timestamptz,
        next_attempt_at = case when v.status = 'FAILED' then ${retryAt?.toISOString() ?? null}::timestamptz else w.next_attempt_at end,
        completed_at = case when v.status = 'FAILED' then null else ${atIso}::timestamptz end
      from verdict v, lease l
      where w.id = l.id
      returning w.id, w.status, w.endpoint_id
    ), health as (
      update webhook_endpoints x set
        consecutive_failures = case when ${result.ok}::boolean then 0 else x.consecutive_failures + 1 end,
        failing_since = ${failingSinceAfterAttempt(result.ok, atIso)}
      from d, verdict v
      where x.id = v.endpoint_id
        and ((${result.ok}::boolean and x.consecutive_failures <> 0) or (not ${result.ok}::boolean and v.enabled))
      returning x.id
    ), logged as (
      insert into webhook_attempts
        (id, delivery_id, endpoint_id, attempt_number, started_at, duration_ms, request_headers, response_status, response_body, error, remote_address, created_at)
      select ${newId("wha")}, d.id, d.endpoint_id, ${claim.attempt}::int, ${result.startedAt.toISOString()}::timestamptz, ${result.durationMs}::int,
        ${result.requestHeaders ? JSON.stringify(result.requestHeaders) : null}::text::json, ${result.status}::int, ${result.body}::text,
        ${result.error}::text, ${result.remoteAddress}::text, ${atIso}::timestamptz
      from d
      returning id
    )
    select d.status, (select count(*) from health) as health, (select count(*) from logged) as logged from d`,
  );
  const row = rows[0];
  if (!row) return { kind: "stale" };
  return { kind: "recorded", status: row.status, nextAttemptAt: row.status === "FAILED" ? retryAt : null };
}
