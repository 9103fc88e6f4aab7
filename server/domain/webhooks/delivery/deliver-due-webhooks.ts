import type { Db } from "@/server/db/client";
import { claimDeliveries, type TClaimOptions } from "./claim-deliveries";
import { performDelivery, type TDeliveryDeps } from "./perform-delivery";

/**
 * Claims one batch of due deliveries and performs them all, waiting for the results. The worker job runs the
 * same two steps without waiting (to keep claiming while attempts are in flight); tests and tools use this.
 */
export async function deliverDueWebhooks(db: Db, opts: Partial<TClaimOptions> & TDeliveryDeps = {}) {
  const claims = await claimDeliveries(db, { limit: opts.limit ?? 50, ...opts });
  return Promise.all(claims.map(async (claim) => ({ claim, outcome: await performDelivery(db, claim, opts) })));
}
