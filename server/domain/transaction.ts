import type { Db } from "@/server/db/client";
import { wakeDeliveryWorkers } from "@/server/domain/webhooks/events/wake-delivery-workers";

/**
 * Runs `work` in one transaction and, once it has committed, wakes the delivery workers.
 *
 * This is how "after commit" works: `recordEvent(tx, …)` only writes rows in the caller's transaction (so a
 * rollback takes the event and its deliveries with it); the wake-up belongs to whoever owns the commit. State
 * changes that raise events run inside `withEvents(db, async (tx) => { …change…; await recordEvent(tx, …) })`.
 * A caller that manages its own transaction calls `wakeDeliveryWorkers()` after its commit instead; if it forgets,
 * polling still delivers, only later. When `db` is already a transaction, the work joins it as a savepoint and
 * the wake-up is sent early but harmlessly (workers find nothing new until the outer commit, then poll).
 */
export async function withEvents<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const result = await db.transaction((tx) => work(tx));
  await wakeDeliveryWorkers();
  return result;
}
