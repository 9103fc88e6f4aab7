import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { logLostAttempts, PAUSED_ERROR } from "./claim-deliveries";

/**
 * Ends as EXHAUSTED "endpoint paused" the queued deliveries (PENDING or FAILED) that no worker holds, of the
 * paused endpoints `endpoints` selects (a condition on `e`, webhook_endpoints). "No worker holds" includes a
 * lease that expired: that delivery's last attempt was counted at its claim and its worker was lost, so the
 * attempt is logged as such (error "worker lost during the attempt", as the claim does when it takes a lost
 * delivery over), in the same statement. Returns how many deliveries were dropped.
 */
export async function dropQueuedDeliveries(db: Db, endpoints: SQL, at: Date = now()): Promise<number> {
  const atIso = at.toISOString();
  const rows = await queryRows<{ dropped: number }>(
    db,
    sql`
    with old as (
      select q.delivery_id as id, q.claim_token is not null as was_lost,
        case when q.claim_token is null then q.attempts else q.lease_attempt end as attempts, q.claimed_at as last_attempt_at
      from webhook_queue q
      where (q.claim_token is null or q.locked_until <= ${atIso}::timestamptz)
        and q.endpoint_id in (select e.id from webhook_endpoints e where not e.enabled and ${endpoints})
      for update of q
    ), dequeued as (
      delete from webhook_queue q using old where q.delivery_id = old.id returning q.delivery_id
    ), dropped as (
      update webhook_deliveries w set
        status = 'EXHAUSTED', attempts = old.attempts, last_error = ${PAUSED_ERROR}, completed_at = ${atIso}::timestamptz,
        last_attempt_at = coalesce(old.last_attempt_at, w.last_attempt_at), updated_at = ${atIso}::timestamptz
      from old
      where w.id = old.id
      returning w.id, old.was_lost, old.attempts, old.last_attempt_at
    ), logged as (
      ${logLostAttempts(sql`select d.id, d.attempts, d.last_attempt_at from dropped d where d.was_lost`, atIso)}
    )
    select (select count(*) from dropped)::int as dropped, (select count(*) from logged)::int as logged,
      (select count(*) from dequeued)::int as dequeued`,
  );
  return rows[0]?.dropped ?? 0;
}

/**
 * Safety net for pause: queued deliveries of a paused endpoint that no worker holds end EXHAUSTED "endpoint
 * paused". A pause drops them itself; this catches the one that was in flight when the pause landed and whose
 * worker then died (its lease expired, so the pause skipped it and no outcome ever dropped it). Claims never
 * pick deliveries of paused endpoints, so running this now and then is enough (the worker does, one endpoint
 * per transaction: the webhook-drop-paused job in ./jobs.ts).
 */
export function dropPausedDeliveries(db: Db): Promise<number> {
  return dropQueuedDeliveries(db, sql`true`);
}
