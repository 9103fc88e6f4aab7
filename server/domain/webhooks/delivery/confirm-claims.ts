/**
 * The last check before a claimed delivery is sent, for many claims in ONE statement (the worker batches the
 * claims it is about to send, see send-gate.ts): a claim made just before its endpoint was paused must not be
 * POSTed. A pause drops only the queued deliveries no worker holds; this closes the gap between a claim and
 * its request. For each claim:
 * - "send": still ours (the token matches) and the endpoint is enabled;
 * - "paused": the endpoint is paused — the delivery ends EXHAUSTED "endpoint paused" right here, fenced by the
 *   token, without a request, without counting a failure, and with the attempt that was never made uncounted;
 * - "stale": the claim is no longer ours (lease taken over, or the delivery or endpoint deleted): send nothing.
 * A pause that commits after this check and before the request leaves finds the attempt "in flight", as
 * documented; the window is the time between this statement and the first bytes on the wire.
 *
 * A young claim is checked by its endpoint alone. While at least two deadlines are left on its lease, no other
 * worker can take the delivery over (a claim takes over only an expired lease, and every clock is assumed within
 * those two deadlines of the others — the margin an attempt already relies on to record its outcome in time); its
 * queue row goes only with its outcome or release (this worker's), or with its endpoint. So when every endpoint
 * of such claims is found enabled, they are all "send", from one read of a row per endpoint instead of the queue
 * row, the endpoint and the JSON of each claim (PostgreSQL CPU per delivery 0.87 ×, drain 1.05 × at 10,000:
 * bench/README.md, "The pre-send check of young claims", issue 22). Everything else — an older claim, an
 * endpoint paused or gone — gets the whole check below. (Deliveries are otherwise deleted only once finished,
 * and events only once they have none: neither while a lease is held.)
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { idArray } from "@/server/lib/ids";
import { PAUSED_ERROR, type TClaim } from "./claim-deliveries";
import { queryPrepared } from "@/server/db/driver";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";

export type TSendVerdict = "send" | "paused" | "stale";

/** What the check reads of a claim. */
export type TCheckedClaim = Pick<TClaim, "id" | "token" | "endpointId" | "leaseEndsAt">;

/** Lease left (ms) for a claim to count as young: two attempt deadlines (see above). */
export const YOUNG_LEASE_LEFT_MS = 2 * WEBHOOK_LIMITS.deadlineMs;

/** Whether a claim is young at `at`: at least YOUNG_LEASE_LEFT_MS of its lease left (the worker sends no older claim it waited with). */
export function isYoungClaim(claim: Pick<TClaim, "leaseEndsAt">, at: Date): boolean {
  return claim.leaseEndsAt.getTime() - at.getTime() >= YOUNG_LEASE_LEFT_MS;
}

export async function confirmClaims(db: Db, claims: readonly TCheckedClaim[]): Promise<TSendVerdict[]> {
  if (claims.length === 0) return [];
  const at = now();
  if (claims.every((c) => isYoungClaim(c, at))) {
    const ids = idArray([...new Set(claims.map((c) => c.endpointId))]);
    const rows = await queryPrepared<{ id: string }>(db, sql`select e.id from webhook_endpoints e where e.id = any(${ids}::text[]) and e.enabled`);
    const enabled = new Set(rows.map((r) => r.id));
    if (claims.every((c) => enabled.has(c.endpointId))) return claims.map(() => "send");
  }
  return checkEach(db, claims, at);
}

/** The whole check: each claim's queue row (is it still ours?) and its endpoint, and the drop of paused ones. */
async function checkEach(db: Db, claims: readonly TCheckedClaim[], at: Date): Promise<TSendVerdict[]> {
  const atIso = at.toISOString();
  // One statement text whatever the batch size (the claims travel as one JSON parameter): prepared once. Rows
  // are reached by primary key (`= any(…)`), whatever the planner knows of the table's size.
  const input = JSON.stringify(claims.map((c) => ({ id: c.id, token: c.token })));
  // The check reads each claim by primary key; the update that drops claims on paused endpoints runs only on
  // the rows the check found paused (nearly always none). It once joined every claim to the in-flight partial
  // index instead, for nothing: 492 of a 64-claim check's 813 buffer accesses (bench:peers).
  const rows = await queryPrepared<{ id: string; ours: boolean; enabled: boolean; dropped: boolean }>(
    db,
    sql`
    with input as (select * from json_to_recordset(${input}::text::json) as i(id text, token text)),
    checked as (
      select i.id, i.token, coalesce(q.claim_token = i.token, false) as ours, coalesce(e.enabled, false) as enabled
      from input i
        left join webhook_queue q on q.delivery_id = i.id and q.delivery_id = any(array(select id from input))
        left join webhook_endpoints e on e.id = q.endpoint_id
    ),
    released as (
      delete from webhook_queue q using checked c, webhook_endpoints e
      where q.delivery_id = any(array(select id from checked where ours and not enabled)) and q.delivery_id = c.id
        and q.claim_token = c.token and e.id = q.endpoint_id and not e.enabled
      returning q.delivery_id as id
    ),
    dropped as (
      update webhook_deliveries w set
        status = 'EXHAUSTED', last_error = ${PAUSED_ERROR}, completed_at = ${atIso}::timestamptz, updated_at = ${atIso}::timestamptz
      where w.id = any(array(select id from released))
      returning w.id
    )
    select c.id, c.ours, c.enabled, exists (select 1 from dropped d where d.id = c.id) as dropped
    from checked c`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return claims.map((c) => {
    const row = byId.get(c.id);
    if (row?.dropped) return "paused";
    return row?.ours && row.enabled ? "send" : "stale";
  });
}
