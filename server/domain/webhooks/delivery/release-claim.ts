import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import type { TClaim } from "./claim-deliveries";

/**
 * Gives a claimed delivery back on graceful shutdown, fenced by the token: the lease is cleared, the attempt
 * that never completed is uncounted, and it is due again at once for the next worker. Returns false when the
 * claim was no longer ours.
 */
export async function releaseClaim(db: Db, claim: Pick<TClaim, "id" | "token">): Promise<boolean> {
  const at = now();
  const rows = await db
    .update(webhookDeliveries)
    .set({ lockedUntil: null, claimToken: null, attempts: sql`greatest(${webhookDeliveries.attempts} - 1, 0)`, nextAttemptAt: at, updatedAt: at })
    .where(and(eq(webhookDeliveries.id, claim.id), eq(webhookDeliveries.claimToken, claim.token)))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}
