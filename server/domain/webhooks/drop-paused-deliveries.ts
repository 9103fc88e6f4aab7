import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { webhookDeliveries as d, webhookEndpoints as e } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { PAUSED_ERROR } from "./claim-deliveries";

/**
 * Safety net for pause: queued deliveries of a paused endpoint that no worker holds end EXHAUSTED "endpoint
 * paused". A pause drops them itself; this catches the one that was in flight when the pause landed and whose
 * worker then died (its lease expired, so the pause skipped it and no outcome ever dropped it). Claims never
 * pick deliveries of paused endpoints, so running this now and then (the retention job does) is enough.
 */
export async function dropPausedDeliveries(db: Db): Promise<number> {
  const at = now();
  const rows = await db
    .update(d)
    .set({ status: "EXHAUSTED", lastError: PAUSED_ERROR, completedAt: at, lockedUntil: null, claimToken: null, updatedAt: at })
    .where(
      and(
        inArray(d.status, ["PENDING", "FAILED"]),
        or(isNull(d.lockedUntil), lte(d.lockedUntil, at)),
        inArray(d.endpointId, db.select({ id: e.id }).from(e).where(eq(e.enabled, false))),
      ),
    )
    .returning({ id: d.id });
  return rows.length;
}
