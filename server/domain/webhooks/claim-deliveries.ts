/**
 * Claims due deliveries for one worker. In one short transaction:
 * - a transaction-scoped advisory lock serialises claimers, so the per-endpoint in-flight counts below are
 *   exact across any number of workers (claiming takes milliseconds; the HTTP work happens outside);
 * - due rows (PENDING/FAILED, next attempt reached, lease free or expired, endpoint enabled) are read
 *   `FOR UPDATE SKIP LOCKED`, oldest first;
 * - fairness: at most `perEndpointCap` in flight per endpoint, of which retries may hold only
 *   `perEndpointCap - firstAttemptReserve`, so a dead endpoint's retries cannot starve its fresh events;
 * - each chosen row gets a lease (`locked_until`), a fresh claim token and its attempt counted NOW, so a
 *   delivery that crashes its worker still moves toward EXHAUSTED.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import type { TEventName } from "./event-catalogue";
import { WEBHOOK_LIMITS } from "./limits";

/** Arbitrary constant naming the claim lock among advisory locks. */
const CLAIM_LOCK = 4_201_777;
export const PAUSED_ERROR = "endpoint paused";

export type TClaim = {
  id: string;
  token: string;
  /** The attempt number this claim is (already counted). */
  attempt: number;
  endpointId: string;
  event: TEventName;
  body: string;
  url: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
};

type TClaimedRow = {
  id: string;
  claim_token: string;
  attempts: number;
  endpoint_id: string;
  event: string;
  body: string;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | Date | null;
  next_attempt_at: string | Date;
};

export type TClaimOptions = { limit: number; leaseMs?: number; perEndpointCap?: number; firstAttemptReserve?: number };

export async function claimDeliveries(db: Db, opts: TClaimOptions): Promise<TClaim[]> {
  const cap = opts.perEndpointCap ?? WEBHOOK_LIMITS.perEndpointCap;
  const retryCap = cap - (opts.firstAttemptReserve ?? WEBHOOK_LIMITS.firstAttemptReserve);
  const leaseMs = opts.leaseMs ?? WEBHOOK_LIMITS.leaseMs;
  if (opts.limit <= 0) return [];
  const at = now();
  const atIso = at.toISOString();

  const claimed = await db.transaction(async (tx) => {
    // The lock and the claim are sent together (pipelined on the transaction's connection) but run as two
    // statements, in order: the claim statement takes its snapshot after the lock is held, so the in-flight
    // counts it reads include every claim committed by the previous holder.
    const locked = tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    // One statement: candidates (FOR UPDATE SKIP LOCKED, oldest first) → in-flight load of their endpoints →
    // fairness → claim. The fairness is the loop "for each candidate in order: skip it when its endpoint has
    // `cap` in flight, or when it is a retry and retries hold `retryCap`; else take it", written as:
    // retries ranked per endpoint beyond `retryCap - retries in flight` are dropped, then the remaining
    // candidates ranked per endpoint beyond `cap - in flight` are dropped, then the first `limit` in order.
    const rows = queryRows<TClaimedRow>(
      tx,
      sql`
      with cand as (
        select w.id, w.endpoint_id, w.attempts, w.next_attempt_at
        from webhook_deliveries w join webhook_endpoints e on e.id = w.endpoint_id
        where w.status in ('PENDING', 'FAILED') and (w.locked_until is null or w.locked_until <= ${atIso}::timestamptz)
          and w.next_attempt_at <= ${atIso}::timestamptz and e.enabled = true
        order by w.next_attempt_at, w.id
        limit ${opts.limit * 4}::int
        for update of w skip locked
      ), load as (
        select f.endpoint_id, count(*)::int as total, (count(*) filter (where f.attempts > 1))::int as retries
        from webhook_deliveries f
        where f.endpoint_id in (select endpoint_id from cand) and f.claim_token is not null and f.locked_until > ${atIso}::timestamptz
        group by f.endpoint_id
      ), retry_ranked as (
        select c.id, c.endpoint_id, c.attempts, c.next_attempt_at, coalesce(l.total, 0) as total0, coalesce(l.retries, 0) as retries0,
          row_number() over (partition by c.endpoint_id, c.attempts > 0 order by c.next_attempt_at, c.id) as kind_rank
        from cand c left join load l on l.endpoint_id = c.endpoint_id
      ), admissible as (
        select r.id, r.next_attempt_at, r.total0,
          row_number() over (partition by r.endpoint_id order by r.next_attempt_at, r.id) as endpoint_rank
        from retry_ranked r
        where r.attempts = 0 or r.kind_rank <= ${retryCap}::int - r.retries0
      ), chosen as (
        select a.id from admissible a
        where a.endpoint_rank <= ${cap}::int - a.total0
        order by a.next_attempt_at, a.id
        limit ${opts.limit}::int
      )
      update webhook_deliveries w set
        attempts = w.attempts + 1,
        locked_until = ${new Date(at.getTime() + leaseMs).toISOString()}::timestamptz,
        claim_token = gen_random_uuid()::text,
        last_attempt_at = ${atIso}::timestamptz,
        updated_at = ${atIso}::timestamptz
      from chosen ch, webhook_events ev, webhook_endpoints e
      where w.id = ch.id and ev.id = w.event_id and e.id = w.endpoint_id
      returning w.id, w.claim_token, w.attempts, w.endpoint_id, w.event, ev.body, e.url,
        e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_expires_at, w.next_attempt_at`,
    );
    // Awaited together, so a failing lock never leaves the claim's rejection unhandled.
    const [, claimedRows] = await Promise.all([locked, rows]);
    // Rows come back in no particular order; hand them out oldest first, as they were chosen.
    return claimedRows.sort((x, y) => {
      const dx = new Date(x.next_attempt_at).getTime();
      const dy = new Date(y.next_attempt_at).getTime();
      return dx - dy || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
    });
  });
  return claimed.map((c) => ({
    id: c.id,
    token: c.claim_token,
    attempt: c.attempts,
    endpointId: c.endpoint_id,
    event: c.event as TEventName,
    body: c.body,
    url: c.url,
    secretEncrypted: c.secret_encrypted,
    previousSecretEncrypted: c.previous_secret_encrypted,
    // Raw rows carry timestamps as the driver gives them (a string with drizzle's drivers).
    previousSecretExpiresAt: c.previous_secret_expires_at === null ? null : new Date(c.previous_secret_expires_at),
  }));
}
