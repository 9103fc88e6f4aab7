import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import type { TClaim } from "./claim-deliveries";

/**
 * Gives a claimed delivery back on graceful shutdown, fenced by the token: the lease is deleted (so the attempt
 * that never completed is uncounted), and it is due again at once for the next worker. Returns false when the
 * claim was no longer ours.
 */
export async function releaseClaim(db: Db, claim: Pick<TClaim, "id" | "token">): Promise<boolean> {
  const atIso = now().toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with lease as (
      delete from webhook_leases f where f.delivery_id = ${claim.id} and f.claim_token = ${claim.token} returning f.delivery_id
    ), due as (
      update webhook_queue q set next_attempt_at = ${atIso}::timestamptz
      where q.delivery_id in (select delivery_id from lease) and q.next_attempt_at > ${atIso}::timestamptz
      returning q.delivery_id
    )
    select delivery_id as id, (select count(*) from due) as due from lease`,
  );
  return rows.length > 0;
}
