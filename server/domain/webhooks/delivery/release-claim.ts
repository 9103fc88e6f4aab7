import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import type { TClaim } from "./claim-deliveries";

/**
 * Gives a claimed delivery back on graceful shutdown, fenced by the token: the queue row's lease is cleared (so the attempt
 * that never completed is uncounted), and it is due again at once for the next worker. Returns false when the
 * claim was no longer ours.
 */
export async function releaseClaim(db: Db, claim: Pick<TClaim, "id" | "token">): Promise<boolean> {
  const atIso = now().toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update webhook_queue q set next_attempt_at = least(q.next_attempt_at, ${atIso}::timestamptz),
      claim_token = null, lease_attempt = null, claimed_at = null, locked_until = null
    where q.delivery_id = ${claim.id} and q.claim_token = ${claim.token}
    returning q.delivery_id as id`,
  );
  return rows.length > 0;
}
