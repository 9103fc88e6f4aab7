import type { Db } from "@/server/db/client";
import { claimDeliveries, type TClaim, type TClaimOptions } from "./claim-deliveries";
import { orderKey } from "./delivery-order";
import { performDelivery, type TDeliveryDeps } from "./perform-delivery";

/**
 * Claims one batch of due deliveries and performs them all, waiting for the results. The worker job runs the
 * same two steps without waiting (to keep claiming while attempts are in flight); tests and tools use this.
 * As in the job, a package's deliveries to one endpoint go one after another, in the claim's order.
 */
export async function deliverDueWebhooks(db: Db, opts: Partial<TClaimOptions> & TDeliveryDeps = {}) {
  const claims = await claimDeliveries(db, { limit: opts.limit ?? 50, ...opts });
  const after = new Map<string, Promise<unknown>>();
  const attempt = (claim: TClaim) => performDelivery(db, claim, opts).then((outcome) => ({ claim, outcome }));
  return Promise.all(
    claims.map((claim) => {
      const key = orderKey(claim);
      if (key === null) return attempt(claim);
      // After the previous one, whatever became of it (its failure is reported through its own promise).
      const done = (after.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => attempt(claim));
      after.set(key, done);
      return done;
    }),
  );
}
