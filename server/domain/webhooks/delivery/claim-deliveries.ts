/**
 * Claims due deliveries for one worker. In one short transaction:
 * - a transaction-scoped advisory lock serialises claimers, so the per-endpoint in-flight counts below are
 *   exact across any number of workers (claiming takes milliseconds; the HTTP work happens outside);
 * - a delivery whose worker was lost during its LAST attempt (lease expired, nine attempts counted) ends
 *   EXHAUSTED "worker lost during the last attempt" instead of being sent a tenth time;
 * - every attempt whose worker was lost (the ninth above, or an earlier one found when its delivery is claimed
 *   again after the lease) gets its row in the attempt log — error "worker lost during the attempt", no status,
 *   no duration — so the log shows every counted attempt. It does NOT count toward the endpoint's health: it
 *   says nothing about the receiver (our process died), and the spec counts slow, non-2xx or unreachable;
 * - fairness is decided PER ENDPOINT before the global limit: for each enabled endpoint, its oldest due first
 *   attempts and due retries that fit its room (at most `perEndpointCap` in flight, of which retries may hold
 *   only `perEndpointCap - firstAttemptReserve`), so one endpoint's long queue can neither fill the batch nor
 *   starve the others; then the oldest `limit` of those, each locked `FOR UPDATE SKIP LOCKED` with every
 *   condition checked again on the locked row;
 * - each chosen row gets a lease (`locked_until`), a fresh claim token and its attempt counted NOW, so a
 *   delivery that crashes its worker still moves toward EXHAUSTED; and its `next_attempt_at` moves to when the
 *   NEXT attempt is due on the retry table (never before the lease ends), so a delivery whose worker dies is
 *   retried on the schedule — not at every lease expiry.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { sqlNewId } from "@/server/lib/ids";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { transactionInOneTrip } from "@/server/db/driver";
import { scheduledDelayMs } from "./retry-schedule";

/** Arbitrary constant naming the claim lock among advisory locks. */
export const CLAIM_LOCK = 4_201_777;
export const PAUSED_ERROR = "endpoint paused";
export const WORKER_LOST_ERROR = "worker lost during the last attempt";
/** The attempt-log error of an attempt whose worker was lost (its outcome is unknown). */
export const LOST_ATTEMPT_ERROR = "worker lost during the attempt";

/**
 * The attempt log's rows for attempts whose worker was lost, as the body of a data-modifying CTE: `lost` is a
 * query of (delivery id, attempt number, when it was claimed). No status, no duration, the error above. One
 * definition for the three places that find such attempts: the claim, a pause and the pause's safety net.
 */
export function logLostAttempts(lost: SQL, atIso: string): SQL {
  return sql`insert into webhook_attempts (id, delivery_id, attempt_number, started_at, error, created_at)
      select ${sqlNewId("wha")}, x.id, x.attempt, coalesce(x.started, ${atIso}::timestamptz),
        ${LOST_ATTEMPT_ERROR}, ${atIso}::timestamptz
      from (${lost}) x(id, attempt, started)
      where x.attempt > 0
      returning 1`;
}

/** Delay after attempt n (1-based index n) on the retry table, for attempts 1 … maxAttempts - 1, in ms. */
const SCHEDULE_MS = Array.from({ length: WEBHOOK_LIMITS.maxAttempts - 1 }, (_, i) => scheduledDelayMs(i + 1));

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
  due_at: string | Date;
};

export type TClaimOptions = { limit: number; leaseMs?: number; perEndpointCap?: number; firstAttemptReserve?: number };

export async function claimDeliveries(db: Db, opts: TClaimOptions): Promise<TClaim[]> {
  if (opts.limit <= 0) return [];
  const { lock, claim } = claimStatements(opts, now());
  const [, claimedRows] = (await transactionInOneTrip(db, [lock, claim])) as [unknown, TClaimedRow[]];
  // Rows come back in no particular order; hand them out oldest first, as they were chosen.
  const claimed = claimedRows.sort((x, y) => {
    const dx = new Date(x.due_at).getTime();
    const dy = new Date(y.due_at).getTime();
    return dx - dy || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
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

/** The claim's two statements at `at` (exported for the test that reads the claim's plan). */
export function claimStatements(opts: TClaimOptions, at: Date): { lock: SQL; claim: SQL } {
  const cap = opts.perEndpointCap ?? WEBHOOK_LIMITS.perEndpointCap;
  const retryCap = cap - (opts.firstAttemptReserve ?? WEBHOOK_LIMITS.firstAttemptReserve);
  const leaseMs = opts.leaseMs ?? WEBHOOK_LIMITS.leaseMs;
  const max = WEBHOOK_LIMITS.maxAttempts;
  const atIso = at.toISOString();
  const leaseEnd = new Date(at.getTime() + leaseMs).toISOString();

  // One transaction, sent in one round trip (transactionInOneTrip): begin, the lock, the claim, commit. The
  // lock and the claim run as two statements, in order: the claim statement takes its snapshot after the lock
  // is held, so the in-flight counts it reads include every claim committed by the previous holder. (Sent in one
  // statement, the snapshot would predate the lock; sent unserialised, it once read stale counts.)
  const lock = sql`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint)`;
  // One statement. `room` per endpoint = cap - in flight; `retry_room` = retryCap - retries in flight. The
  // per-endpoint rule is the loop "for each due row of the endpoint, oldest first: take it unless the
  // endpoint has no room left, or it is a retry and retries have no room left", which only ever looks at the
  // endpoint's oldest `room` first attempts and oldest `retry_room` retries: the two LATERAL index scans
  // fetch exactly those, and the merge keeps the oldest `room` of them. Endpoints without room are skipped.
  // Every step looks rows up by key or through a partial index (in flight: `claim_token is not null`; due per
  // endpoint; the chosen ids locked one by one through the primary key), so the cost follows the batch and
  // the number of endpoints with queued deliveries, not the backlog, the retained history or idle endpoints. First attempts and retries have an
  // index each (`attempts = 0` / `attempts > 0`): the planner knows from their sizes how few retries there
  // usually are, and a prepared statement's generic plan stays on them. Queued is spelt `status not in
  // ('DELIVERED', 'EXHAUSTED')` as in those indexes (see the schema), which keeps the global due index out.
  // The leases of each endpoint (its in-flight index entries) give both its room and its lost ninth attempts,
  // which are then updated by primary key (their status test is written `not in ('DELIVERED', 'EXHAUSTED')`
  // so that the planner cannot combine in a due index, which would walk the whole backlog).
  // Only endpoints with queued deliveries are looked at: two skip scans walk the first-attempt and retry
  // indexes from one endpoint id to the next (one index probe per such endpoint), so a claim costs nothing for
  // the many endpoints with nothing queued (it once visited every endpoint of every workspace: +4 ms per claim
  // with 2,000 idle endpoints, measured). A lost ninth attempt is a queued row, so its endpoint is among them.
  const queued = (attempts: SQL) => sql`w.status not in ('DELIVERED', 'EXHAUSTED') and ${attempts}`;
  const skipScan = (name: string, attempts: SQL) => sql`${sql.raw(name)}(endpoint_id) as (
      (select w.endpoint_id from webhook_deliveries w where ${queued(attempts)} order by w.endpoint_id limit 1)
      union all
      select (select w.endpoint_id from webhook_deliveries w
              where ${queued(attempts)} and w.endpoint_id > s.endpoint_id order by w.endpoint_id limit 1)
      from ${sql.raw(name)} s where s.endpoint_id is not null
    )`;
  const claim = sql`
    with recursive ${skipScan("first_queued", sql`w.attempts = 0`)}, ${skipScan("retry_queued", sql`w.attempts > 0`)},
    queued_endpoints as (
      select endpoint_id from first_queued where endpoint_id is not null
      union
      select endpoint_id from retry_queued where endpoint_id is not null
    ), leases as (
      select e.id as endpoint_id, e.enabled, l.total, l.retries, l.lost
      from queued_endpoints q join webhook_endpoints e on e.id = q.endpoint_id cross join lateral (
        select (count(*) filter (where f.locked_until > ${atIso}::timestamptz))::int as total,
          (count(*) filter (where f.locked_until > ${atIso}::timestamptz and f.attempts > 1))::int as retries,
          array_agg(f.id) filter (where f.locked_until <= ${atIso}::timestamptz and f.attempts >= ${max}::int) as lost
        from webhook_deliveries f
        where f.endpoint_id = e.id and f.claim_token is not null
      ) l
    ), lost as (
      update webhook_deliveries w set
        status = 'EXHAUSTED', last_error = ${WORKER_LOST_ERROR}, last_response_status = null, last_response_body = null,
        last_duration_ms = null, completed_at = ${atIso}::timestamptz, locked_until = null, claim_token = null,
        updated_at = ${atIso}::timestamptz
      -- Gated by a one-time test: with no lost ninth attempt (nearly always), the planner's in-flight index walk
      -- for the array below is never run (it cost ~10 % of a claim's buffer accesses, bench/README.md).
      where (select bool_or(lost is not null) from leases) and w.id = any(array(select unnest(lost) from leases))
        and w.claim_token is not null
        and w.locked_until <= ${atIso}::timestamptz and w.status not in ('DELIVERED', 'EXHAUSTED') and w.attempts >= ${max}::int
      returning w.id, w.attempts, w.last_attempt_at
    ), room as (
      select endpoint_id, ${cap}::int - total as room, least(${retryCap}::int - retries, ${cap}::int - total) as retry_room
      from leases
      where enabled and ${cap}::int - total > 0
    ), cand as (
      select r.endpoint_id, r.room, c.id, c.next_attempt_at
      from room r cross join lateral (
        select w.id, w.next_attempt_at from webhook_deliveries w
        where w.endpoint_id = r.endpoint_id and w.attempts = 0 and w.status not in ('DELIVERED', 'EXHAUSTED')
          and w.next_attempt_at <= ${atIso}::timestamptz and (w.locked_until is null or w.locked_until <= ${atIso}::timestamptz)
        order by w.next_attempt_at
        limit r.room
      ) c
      union all
      select r.endpoint_id, r.room, c.id, c.next_attempt_at
      from room r cross join lateral (
        select w.id, w.next_attempt_at from webhook_deliveries w
        where w.endpoint_id = r.endpoint_id and w.attempts > 0 and w.status not in ('DELIVERED', 'EXHAUSTED')
          and w.next_attempt_at <= ${atIso}::timestamptz and (w.locked_until is null or w.locked_until <= ${atIso}::timestamptz)
          and w.attempts < ${max}::int
        order by w.next_attempt_at
        limit greatest(r.retry_room, 0)
      ) c
    ), admissible as (
      select c.id, c.next_attempt_at, c.room,
        row_number() over (partition by c.endpoint_id order by c.next_attempt_at, c.id) as endpoint_rank
      from cand c
    ), chosen as (
      select a.id from admissible a
      where a.endpoint_rank <= a.room
      order by a.next_attempt_at, a.id
      limit ${opts.limit}::int
    ), grabbed as (
      select g.id, g.next_attempt_at, g.was_lost, g.lost_attempt, g.lost_started from chosen ch cross join lateral (
        select w.id, w.next_attempt_at, w.claim_token is not null as was_lost, w.attempts as lost_attempt, w.last_attempt_at as lost_started
        from webhook_deliveries w
        where w.id = ch.id and w.status in ('PENDING', 'FAILED') and w.attempts < ${max}::int
          and w.next_attempt_at <= ${atIso}::timestamptz and (w.locked_until is null or w.locked_until <= ${atIso}::timestamptz)
        for update of w skip locked
      ) g
    ), lost_logged as (
      -- The attempt log's row for each attempt whose worker was lost: the ninth ones ended above, and those of
      -- deliveries claimed again now (a delivery still holding a claim token is claimed again only after its
      -- lease expired; its old values were read under the row lock).
      ${logLostAttempts(
        sql`select l.id, l.attempts, l.last_attempt_at from lost l
            union all
            select g.id, g.lost_attempt, g.lost_started from grabbed g where g.was_lost`,
        atIso,
      )}
    )
    update webhook_deliveries w set
      attempts = w.attempts + 1,
      locked_until = ${leaseEnd}::timestamptz,
      claim_token = gen_random_uuid()::text,
      last_attempt_at = ${atIso}::timestamptz,
      next_attempt_at = case when w.attempts + 1 < ${max}::int
        then greatest(${atIso}::timestamptz + (${sql.raw(`array[${SCHEDULE_MS.join(",")}]`)}::int[])[w.attempts + 1] * interval '1 millisecond',
                      ${leaseEnd}::timestamptz)
        else ${leaseEnd}::timestamptz end,
      updated_at = ${atIso}::timestamptz
    -- Each grabbed row is reached by its primary key (w.id = g.id). An extra \`w.id = any(array(select id from
    -- grabbed))\` once stood here: the planner then scanned the whole array for every grabbed row (n² index
    -- probes: ~1,300 of a 30-row claim's ~2,600 buffer accesses, bench/README.md, bench:peers).
    from grabbed g, webhook_events ev, webhook_endpoints e
    where w.id = g.id and ev.id = w.event_id and e.id = w.endpoint_id
    returning w.id, w.claim_token, w.attempts, w.endpoint_id, w.event, ev.body, e.url,
      e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_expires_at, g.next_attempt_at as due_at`;
  return { lock, claim };
}
