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
 */
import { sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { PAUSED_ERROR, type TClaim } from "./claim-deliveries";
import { queryPrepared } from "@/server/db/driver";

export type TSendVerdict = "send" | "paused" | "stale";

export async function confirmClaims(db: Db, claims: readonly Pick<TClaim, "id" | "token">[]): Promise<TSendVerdict[]> {
  if (claims.length === 0) return [];
  const atIso = now().toISOString();
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
