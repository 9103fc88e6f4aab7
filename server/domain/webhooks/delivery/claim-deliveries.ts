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
 * - endpoints take turns: a claim looks only at the next `claimWindow` endpoints with queued deliveries after the
 *   last one this process's previous claim looked at (in endpoint id order; back to the start once a window
 *   reaches the end); with more endpoints with work than that, each is looked at once a round, and a claim's cost
 *   follows the window instead of the number of endpoints with work (every claim once read each of them: at
 *   1,000 endpoints, 424 buffer accesses per delivery);
 * - each chosen delivery gets a lease in its narrow queue row's unindexed lease columns (`locked_until`, a
 *   fresh claim token and its attempt number, counted NOW, so a delivery that crashes its worker still moves
 *   toward EXHAUSTED): a HOT update, no index entry; the record is not written. Each endpoint that got
 *   deliveries raises its mark in webhook_flights to the latest due time it leased (one write per endpoint per
 *   claim, none per outcome); a leased row's due time does not change, so the next claim finds all of the
 *   endpoint's leases (its in-flight count, its lost ninth attempts and its lost attempts due again) in the
 *   stretch of its due indexes up to the mark — the stretch its candidates' walk reads anyway. A lease that expired is
 *   taken over in place once the retry table says its next attempt is due (greatest(claimed + delay, lease
 *   end)), so a delivery whose worker dies is retried on the schedule — not at every lease expiry;
 * - claiming ahead (`ahead`, the worker job): while a worker is the only live one (its row is the only one seen
 *   lately in webhook_workers) it may hold up to `ahead` leases of an endpoint (more than the cap) of which it is
 *   the ONLY holder of live leases; it sends at most `perEndpointCap` of them at once and keeps the rest in its
 *   local queue, so a freed slot is filled at once, without a claim. Otherwise an endpoint's room is the cap less
 *   every live lease, as without it. So whenever two workers hold leases of one endpoint, together they hold at
 *   most the cap (a worker gets room at an endpoint held by another only below the cap, and the other then loses
 *   its room ahead): at most `perEndpointCap` requests in flight per endpoint across all workers, as before. A
 *   worker's lease tokens start with its id, which is how "only holder" is read. With several live workers every
 *   endpoint is shared as before: claiming ahead there, each endpoint served by one worker (measured, bench/README.md,
 *   "Claiming ahead"), let the endpoints of a busier worker finish up to 0.8 s after the others at 10,000 deliveries.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { sqlNewId } from "@/server/lib/ids";
import type { TEventName } from "@/server/domain/webhooks/events/event-catalogue";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";
import { transactionInOneTrip } from "@/server/db/driver";
import { readClaimAnswer } from "./claim-answer";
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
  return sql`insert into webhook_attempts (id, delivery_id, endpoint_id, attempt_number, started_at, error, created_at)
      select ${sqlNewId("wha")}, x.id, (select w.endpoint_id from webhook_deliveries w where w.id = x.id), x.attempt,
        coalesce(x.started, ${atIso}::timestamptz),
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
  /**
   * The event's package and its place in the package's events (`sequence`), null for an event of no package: the
   * worker sends one package's deliveries to an endpoint one at a time, in this order (webhook-delivery-job.ts).
   */
  packageId: string | null;
  sequence: number | null;
  url: string;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
  /**
   * When the lease ends, by this process's clock (the claim's time + the lease): until then no other worker can
   * take the delivery over, which lets the pre-send check trust a young claim (confirm-claims.ts).
   */
  leaseEndsAt: Date;
};

export type TClaimOptions = {
  limit: number;
  leaseMs?: number;
  perEndpointCap?: number;
  firstAttemptReserve?: number;
  /** Endpoints with queued deliveries one claim looks at, in the round (WEBHOOK_LIMITS.claimWindow). */
  window?: number;
  /**
   * Claiming ahead (see the header): the leases this worker may hold of an endpoint it alone holds while it is the
   * only live worker. Default (and whenever `worker` is not given): the cap, no claiming ahead.
   */
  ahead?: number;
  /** This worker's id (its row in webhook_workers): the prefix of its lease tokens. */
  worker?: string;
};

/**
 * How long (ms) this process's claims keep the steps for lost leases after a claim found one. A lost lease may
 * wait its turn behind older deliveries for a while (the claim takes it over only once its due time ranks
 * within its endpoint's room); meanwhile an everyday claim would find it and hand over at every claim. So after
 * a hand-over the claims are built with those steps for this long, and then the everyday claim looks again:
 * at most one everyday claim a second is run for nothing while lost leases wait.
 */
export const SETTLE_LOST_MS = 1_000;
/**
 * This process's round of endpoints: its next claim looks at the `claimWindow` endpoints with queued deliveries
 * whose ids follow this one ('' — the start — while the last window reached the end). Each claim's marker row moves
 * it on (claimsFromRows); a hand-over does not, so the claim that settles lost leases looks at the same window.
 */
let roundAfter = "";

/** Where this process's round stands (tests), and a way to put it back to the start or elsewhere. */
export function claimRound(): string {
  return roundAfter;
}
export function setClaimRound(after = ""): void {
  roundAfter = after;
}

/** When the last hand-over was (ms; a clock set back does not extend the window). */
let handedOverAt = Number.NaN;

/** Whether claims made at `at` are built with the steps for lost leases (a claim found one lately). */
export function settlingLostLeases(at: Date): boolean {
  const since = at.getTime() - handedOverAt;
  return since >= 0 && since < SETTLE_LOST_MS;
}

/**
 * Claims up to `opts.limit` deliveries: the everyday claim, and when it finds lost leases to settle, the claim
 * that settles them (claimWithLostLeases) in a transaction of its own.
 */
export async function claimDeliveries(db: Db, opts: TClaimOptions): Promise<TClaim[]> {
  if (opts.limit <= 0) return [];
  return (await runClaim(db, nextClaimStatements(opts))) ?? claimWithLostLeases(db, opts);
}

/** One claim's statements in one transaction, sent in one round trip (see claimStatements); its rows as claims. */
async function runClaim(db: Db, { lock, claim, leaseEndsAt }: ReturnType<typeof claimStatements>): Promise<TClaim[] | null> {
  const [, claimedRows] = (await transactionInOneTrip(db, [lock, claim])) as [unknown, unknown[]];
  return claimsFromRows(claimedRows, leaseEndsAt);
}

/** The statements of this process's next claim: the everyday claim, or the other while settlingLostLeases. */
export function nextClaimStatements(opts: TClaimOptions): ReturnType<typeof claimStatements> {
  const at = now();
  return claimStatements(opts, at, { lostLeases: settlingLostLeases(at) });
}

/**
 * The claim that also settles lost leases: ends the lost ninth attempts EXHAUSTED, logs every lost attempt and
 * takes over the lost leases whose retry is due. Run when the everyday claim reports lost leases (it then
 * claims nothing); it is the everyday claim with those steps added, so it claims as that one would. Claims of
 * the next SETTLE_LOST_MS are built like it.
 */
export async function claimWithLostLeases(db: Db, opts: TClaimOptions): Promise<TClaim[]> {
  const at = now();
  handedOverAt = at.getTime();
  if (opts.limit <= 0) return [];
  return (await runClaim(db, claimStatements(opts, at, { lostLeases: true }))) ?? [];
}

/**
 * The claim statement's rows as claims (readClaimAnswer, claim-answer.ts); null when the everyday claim handed
 * over (claimWithLostLeases is next). Its round row moves this process's round of endpoints on (every claim's rows
 * pass through here).
 */
export function claimsFromRows(rows: readonly unknown[], leaseEndsAt: Date): TClaim[] | null {
  const answer = readClaimAnswer(rows, leaseEndsAt);
  if (answer.roundAfter !== undefined) roundAfter = answer.roundAfter;
  return answer.claims;
}

/**
 * The claim's two statements at `at`, and when their leases end (exported for the tests that read the claim's
 * plan). The everyday claim (`lostLeases` false) leaves out the steps that settle lost leases; when it finds a
 * lease to settle it claims nothing and answers its hand-over row, and `lostLeases: true` builds the
 * claim with those steps. Lost leases are rare (a worker died), and a statement pays for its steps on every run,
 * writing or not (the record's update, the queue's delete and the attempt log's insert set up, their indexes
 * opened; the leases listed in arrays): without them, PostgreSQL's CPU per delivery 0.94–0.96 ×, drain
 * 1.01–1.04 × at 10,000 deliveries (bench/README.md, issue 22). Callers use nextClaimStatements, which picks.
 */
export function claimStatements(
  opts: TClaimOptions,
  at: Date,
  { lostLeases = false }: { lostLeases?: boolean } = {},
): { lock: SQL; claim: SQL; leaseEndsAt: Date } {
  const cap = opts.perEndpointCap ?? WEBHOOK_LIMITS.perEndpointCap;
  const window = opts.window ?? WEBHOOK_LIMITS.claimWindow;
  const after = roundAfter;
  const retryCap = cap - (opts.firstAttemptReserve ?? WEBHOOK_LIMITS.firstAttemptReserve);
  const leaseMs = opts.leaseMs ?? WEBHOOK_LIMITS.leaseMs;
  const max = WEBHOOK_LIMITS.maxAttempts;
  const atIso = at.toISOString();
  const leaseEndsAt = new Date(at.getTime() + leaseMs);
  const leaseEnd = leaseEndsAt.toISOString();
  // Claiming ahead: only with a worker id, and only if it raises the cap. Without it the statement is as before.
  const ahead = opts.worker ? Math.max(opts.ahead ?? cap, cap) : cap;
  const claimsAhead = ahead > cap;
  const tokenPrefix = opts.worker ? `${opts.worker}.` : "";

  // One transaction, sent in one round trip (transactionInOneTrip): begin, the lock, the claim, commit. The
  // lock and the claim run as two statements, in order: the claim statement takes its snapshot after the lock
  // is held, so the in-flight counts it reads include every claim committed by the previous holder. (Sent in one
  // statement, the snapshot would predate the lock; sent unserialised, it once read stale counts.)
  // The queue is small and churns (a row per queued delivery, deleted at the outcome): statistics taken while
  // it was empty make the planner read it by sequential scan — every dead row of it, for every endpoint and
  // every listed lease (the lease table before it cost ~80 buffer accesses per delivery that way, bench:peers).
  // Its rows are only ever wanted by key or per endpoint, so this transaction plans without sequential scans.
  const lock = sql`select pg_advisory_xact_lock(${CLAIM_LOCK}::bigint), set_config('enable_seqscan', 'off', true)`;
  // One statement. `room` per endpoint = cap - in flight; `retry_room` = retryCap - retries in flight. The
  // per-endpoint rule is the loop "for each due row of the endpoint, oldest first: take it unless the
  // endpoint has no room left, or it is a retry and retries have no room left", which only ever looks at the
  // endpoint's oldest `room` first attempts and oldest `retry_room` retries: the two LATERAL index scans
  // fetch exactly those, and the merge keeps the oldest `room` of them. Endpoints without room are skipped.
  // Every step looks rows up by key or through a partial index (due per endpoint; the listed leases and the
  // chosen ids by primary key), so the cost follows the batch and the number of endpoints with queued
  // deliveries, not the backlog, the retained history or idle endpoints. First attempts and retries have an
  // index each (`attempts = 0` / `attempts > 0`): the planner knows from their sizes how few retries there
  // usually are, and a prepared statement's generic plan stays on them.
  // Only endpoints with queued deliveries are looked at: two skip scans walk the first-attempt and retry
  // indexes from one endpoint id to the next (one index probe per such endpoint), so a claim costs nothing for
  // the many endpoints with nothing queued (it once visited every endpoint of every workspace: +4 ms per claim
  // with 2,000 idle endpoints, measured). A leased row is still a queued row, so its endpoint is among them.
  // Each endpoint's leases are the queue rows holding one at or before its webhook_flights mark (every lease
  // has a due time at or before the mark its claim raised, and a leased row's due time does not change): they
  // give its room, its lost ninth attempts and its lost earlier attempts whose retry is due (greatest(claimed +
  // the retry table's delay, lease end)). An outcome, a release or a deletion that ends a lease writes nothing
  // there. The mark only rises: rows before it that hold no lease are due rows the candidates' walk takes first.
  const schedule = sql.raw(`array[${SCHEDULE_MS.join(",")}]::int[]`);
  // Each skip scan walks on from this process's round (`after`) and stops after `window` + 1 endpoints: the
  // claim looks at the first `window` of them, and the one past them, if any, says the round goes on.
  const skipScan = (name: string, attempts: SQL) => sql`${sql.raw(name)}(endpoint_id, n) as (
      (select q.endpoint_id, 1 from webhook_queue q where ${attempts} and q.endpoint_id > ${after}::text order by q.endpoint_id limit 1)
      union all
      select (select q.endpoint_id from webhook_queue q
              where ${attempts} and q.endpoint_id > s.endpoint_id order by q.endpoint_id limit 1), s.n + 1
      from ${sql.raw(name)} s where s.endpoint_id is not null and s.n <= ${window}::int
    )`;
  // When a lost lease's next attempt is due (queue row `q`): the retry table's delay after the claim, and never
  // before the lease ended. One definition for the leases' count, the candidates and the re-check under the lock.
  const retakeDue = sql`greatest(q.claimed_at + (${schedule})[q.lease_attempt] * interval '1 millisecond', q.locked_until)`;
  // Where the two claims differ. With `lostLeases`: each endpoint's lost leases listed (`lost`, `retake`), the
  // lost ninth attempts dequeued and ended EXHAUSTED, the lost leases whose retry is due among the retries'
  // candidates (and re-checked under the row lock), and every lost attempt logged. The everyday claim only asks,
  // per endpoint, whether there is one (`bool_or`): `unsettled` is a lost ninth attempt, or a due lost lease at an
  // endpoint with room for a retry (one the other claim may take over, if its turn has come). If any endpoint has
  // one, it claims nothing and answers its hand-over row (see SETTLE_LOST_MS for what the caller does).
  // Its `leases` is then read once, by `room`, and planned inline there.
  const settleLost = lostLeases
    ? sql`    ), lost_leases as (
      select q.delivery_id, q.lease_attempt as attempt, q.claimed_at from webhook_queue q
      where (select bool_or(lost is not null) from leases) and q.delivery_id = any(array(select unnest(lost) from leases))
        and q.locked_until <= ${atIso}::timestamptz and q.lease_attempt >= ${max}::int
      for update of q skip locked
    ), lost_dequeued as (
      delete from webhook_queue q using lost_leases l where q.delivery_id = l.delivery_id returning q.delivery_id
    ), lost as (
      update webhook_deliveries w set
        status = 'EXHAUSTED', attempts = l.attempt, last_error = ${WORKER_LOST_ERROR}, last_response_status = null,
        last_response_body = null, last_duration_ms = null, last_attempt_at = l.claimed_at, completed_at = ${atIso}::timestamptz,
        updated_at = ${atIso}::timestamptz
      from lost_leases l
      where w.id = l.delivery_id
      returning w.id, l.attempt, l.claimed_at`
    : sql``;
  const logLost = lostLeases
    ? sql`    ), lost_logged as (
      -- The attempt log's row for each attempt whose worker was lost: the ninth ones ended above, and those of
      -- deliveries claimed again now (their expired lease was read under the queue row's lock).
      ${logLostAttempts(
        sql`select l.id, l.attempt, l.claimed_at from lost l
            union all
            select g.id, g.counted, g.lost_started from grabbed g where g.was_lost`,
        atIso,
      )}`
    : sql``;
  const gather = lostLeases ? sql`array_agg(q.delivery_id) filter` : sql`bool_or(true) filter`;
  const retakeArm = lostLeases
    ? sql`
          union all
          select q.delivery_id, ${retakeDue}
          from webhook_queue q where r.retake is not null and q.delivery_id = any(r.retake)`
    : sql``;
  const retakeRecheck = lostLeases
    ? sql`
        or (q.locked_until <= ${atIso}::timestamptz and q.lease_attempt < ${max}::int
          and ${retakeDue} <= ${atIso}::timestamptz)`
    : sql``;
  // Claiming ahead: each endpoint's live leases held by this worker (`mine`, read from the tokens' prefix), and
  // whether this worker is the only live one (`alone`: the one row in webhook_workers seen lately is its own). When
  // it is, and no other worker holds a live lease at the endpoint (`goes_ahead`: all its live leases are this
  // worker's), the endpoint's room is `ahead` less those leases; otherwise the cap less every live lease. Retries
  // never claim ahead (`retry_room` keeps the cap's share). Without claiming ahead none of this is in the statement.
  const holderColumn = claimsAhead ? sql`, q.claim_token` : sql``;
  const mineCount = claimsAhead
    ? sql`
          (count(*) filter (where q.locked_until > ${atIso}::timestamptz and starts_with(q.claim_token, ${tokenPrefix}::text)))::int as mine,`
    : sql``;
  const aliveSince = new Date(at.getTime() - WEBHOOK_LIMITS.workerAliveMs).toISOString();
  const liveJoin = claimsAhead
    ? sql`
        cross join (select array_agg(w.id) = array[${opts.worker!}::text] as alone from webhook_workers w
          where w.seen_at > ${aliveSince}::timestamptz) live`
    : sql``;
  const aheadColumn = claimsAhead ? sql`, coalesce(live.alone and l.total = l.mine, false) as goes_ahead` : sql``;
  const capOf = claimsAhead ? sql`(case when goes_ahead then ${ahead}::int else ${cap}::int end)` : sql`${cap}::int`;
  const token = opts.worker ? sql`${tokenPrefix}::text || gen_random_uuid()::text` : sql`gen_random_uuid()::text`;
  const roomOf = sql`enabled and ${capOf} - total > 0`;
  const roomRows = lostLeases
    ? sql`from leases where ${roomOf}`
    : sql`, (lost or (enabled and least(${retryCap}::int - retries, ${capOf} - total) > 0 and retake)) is true as unsettled
      from leases where ${roomOf} or lost`;
  // The everyday claim hands over when any endpoint has a lease to settle: then it claims nothing and answers its hand-over row.
  const handOver = sql`exists (select 1 from room where unsettled)`;
  const settledOnly = lostLeases ? sql`` : sql` and not ${handOver}`;
  const handOverRow = lostLeases
    ? sql``
    : sql`
    union all
    select 'hand-over', null, null, null, null, null, null, null, null, null, null, null, null, null, null, null where ${handOver}`;
  const claim = sql`
    with recursive ${skipScan("first_queued", sql`q.attempts = 0`)}, ${skipScan("retry_queued", sql`q.attempts > 0`)},
    onward as (
      select endpoint_id from first_queued where endpoint_id is not null
      union
      select endpoint_id from retry_queued where endpoint_id is not null
      order by endpoint_id limit ${window}::int + 1
    ), queued_endpoints as (
      select endpoint_id from onward order by endpoint_id limit ${window}::int
    ), leases as (
      select e.id as endpoint_id, e.enabled, l.total, l.retries, l.lost, l.retake${aheadColumn}
      from queued_endpoints qe join webhook_endpoints e on e.id = qe.endpoint_id
        left join webhook_flights fl on fl.endpoint_id = e.id${liveJoin}
      cross join lateral (
        select (count(*) filter (where q.locked_until > ${atIso}::timestamptz))::int as total,
          (count(*) filter (where q.locked_until > ${atIso}::timestamptz and q.lease_attempt > 1))::int as retries,${mineCount}
          ${gather} (where q.locked_until <= ${atIso}::timestamptz and q.lease_attempt >= ${max}::int) as lost,
          ${gather} (where q.locked_until <= ${atIso}::timestamptz and q.lease_attempt < ${max}::int
            and ${retakeDue} <= ${atIso}::timestamptz) as retake
        from (
          select q.delivery_id, q.lease_attempt, q.claimed_at, q.locked_until${holderColumn} from webhook_queue q
          where q.endpoint_id = e.id and q.attempts = 0 and q.next_attempt_at <= fl.leased_through and q.claim_token is not null
          union all
          select q.delivery_id, q.lease_attempt, q.claimed_at, q.locked_until${holderColumn} from webhook_queue q
          where q.endpoint_id = e.id and q.attempts > 0 and q.next_attempt_at <= fl.leased_through and q.claim_token is not null
        ) q
      ) l
${settleLost}
    ), room as (
      select endpoint_id, ${capOf} - total as room, least(${retryCap}::int - retries, ${capOf} - total) as retry_room, retake
      ${roomRows}
    ), cand as (
      select r.endpoint_id, r.room, c.id, c.due_at
      from room r cross join lateral (
        select q.delivery_id as id, q.next_attempt_at as due_at from webhook_queue q
        where q.endpoint_id = r.endpoint_id and q.attempts = 0 and q.next_attempt_at <= ${atIso}::timestamptz
          and q.claim_token is null
        order by q.next_attempt_at
        limit greatest(r.room, 0)
      ) c
      union all
      select r.endpoint_id, r.room, c.id, c.due_at
      from room r cross join lateral (
        select x.id, x.due_at from (
          select q.delivery_id as id, q.next_attempt_at as due_at from webhook_queue q
          where q.endpoint_id = r.endpoint_id and q.attempts > 0 and q.next_attempt_at <= ${atIso}::timestamptz
            and q.claim_token is null${retakeArm}
        ) x
        order by x.due_at
        limit greatest(r.retry_room, 0)
      ) c
    ), admissible as (
      select c.id, c.due_at, c.room,
        row_number() over (partition by c.endpoint_id order by c.due_at, c.id) as endpoint_rank
      from cand c
    ), chosen as (
      select a.id, a.due_at from admissible a
      where a.endpoint_rank <= a.room${settledOnly}
      order by a.due_at, a.id
      limit ${opts.limit}::int
    ), grabbed as (
      select q.delivery_id as id, q.endpoint_id, q.event_id, q.event, ch.due_at, q.next_attempt_at,
        case when q.claim_token is null then q.attempts else q.lease_attempt end as counted,
        q.claim_token is not null as was_lost, q.claimed_at as lost_started
      from chosen ch join webhook_queue q on q.delivery_id = ch.id
      -- Checked again on the row as locked, which may be newer than the snapshot the candidates came from: a lost
      -- lease's late outcome (its worker was slow, not dead) may have committed in between and moved the retry on.
      where (q.claim_token is null and q.next_attempt_at <= ${atIso}::timestamptz)${retakeRecheck}
      for update of q skip locked
${logLost}
    ), leased as (
      -- The lease is the queue row's unindexed columns: a HOT update. It returns what the answer needs of the
      -- grabbed row, so the answer joins no CTE to another (estimated at one row each, they were joined every
      -- row against every row).
      update webhook_queue q set claim_token = ${token}, lease_attempt = g.counted + 1,
        claimed_at = ${atIso}::timestamptz, locked_until = ${leaseEnd}::timestamptz
      from grabbed g
      where q.delivery_id = g.id
      returning q.delivery_id, q.claim_token, q.lease_attempt, g.endpoint_id, g.event_id, g.event, g.due_at
    ), flown as (
      -- Each endpoint's mark moves up to the latest due time it leased (every leased row lies at or before it).
      insert into webhook_flights as fl (endpoint_id, leased_through)
      select g.endpoint_id, max(g.next_attempt_at) from grabbed g group by g.endpoint_id
      on conflict (endpoint_id) do update set leased_through = excluded.leased_through
      where excluded.leased_through > fl.leased_through
      returning 1
    )
    -- The claimed deliveries, then once each the events and endpoints they need (by primary key, whatever the
    -- planner estimates of the CTE), then where the round goes on.
    select 'claim' as kind, l.delivery_id as id, l.claim_token, l.lease_attempt as attempts, l.endpoint_id, l.event_id, l.event,
      null::text as body, null::text as package_id, null::int as sequence, null::text as url, null::text as secret_encrypted,
      null::text as previous_secret_encrypted, null::timestamptz as previous_secret_expires_at, l.due_at, null::text as round_after
    from leased l
    union all
    select 'event', null, null, null, null, ev.id, null, ev.body, ev.package_id, ev.sequence, null, null, null, null, null, null
    from webhook_events ev where ev.id = any(array(select distinct event_id from leased))
    union all
    select 'endpoint', null, null, null, e.id, null, null, null, null, null, e.url, e.secret_encrypted, e.previous_secret_encrypted,
      e.previous_secret_expires_at, null, null
    from webhook_endpoints e where e.id = any(array(select distinct endpoint_id from leased))
    union all
    -- Where this process's round goes on: after the window's last endpoint while there are more, else from the start.
    select 'round', null, null, null, null, null, null, null, null, null, null, null, null, null, null,
      case when (select count(*) from onward) > ${window}::int
        then (select endpoint_id from onward order by endpoint_id offset ${window}::int - 1 limit 1) else '' end${handOverRow}`;
  return { lock, claim, leaseEndsAt };
}
