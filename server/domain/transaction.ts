import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "@/server/db/client";
import { transactionEndingWith } from "@/server/db/driver";
import { wakeDeliveryWorkers } from "@/server/domain/webhooks/events/wake-delivery-workers";

/** What the `withEvents` work in progress has recorded: deliveries fanned out, so the workers have something to do. */
const recorded = new AsyncLocalStorage<{ deliveries: number }>();

/** Called by recordEvent for the deliveries it inserted (none: no endpoint receives the event). */
export function noteDeliveries(count: number): void {
  const store = recorded.getStore();
  if (store) store.deliveries += count;
}

/**
 * Runs `work` in one transaction and, once it has committed, wakes the delivery workers — if it recorded any
 * delivery (a transaction whose events reached no endpoint, or that raised none, sends no `pg_notify`: one
 * statement less per create, issue 26).
 *
 * This is how "after commit" works: `recordEvent(tx, …)` only writes rows in the caller's transaction (so a
 * rollback takes the event and its deliveries with it); the wake-up belongs to whoever owns the commit. State
 * changes that raise events run inside `withEvents(db, async (tx) => { …change…; await recordEvent(tx, …) })`.
 * A caller that manages its own transaction calls `wakeDeliveryWorkers()` after its commit instead; if it forgets,
 * polling still delivers, only later. When `db` is already a transaction, the work joins it as a savepoint and
 * the wake-up is sent early but harmlessly (workers find nothing new until the outer commit, then poll); a
 * nested `withEvents` counts into the outer one's record, so the outer still wakes the workers after its commit.
 *
 * The transaction is `transactionEndingWith`'s (server/db/driver/transactions.ts): on PostgreSQL the work may end
 * it with one statement sent together with the COMMIT (the package credit, issue 26). If that statement fails (a spent
 * allowance), the COMMIT rolls back and this throws its error (402) — before any after-commit work: the
 * wake-up below runs only after a real commit.
 */
export async function withEvents<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const store = recorded.getStore() ?? { deliveries: 0 };
  const result = await recorded.run(store, () => transactionEndingWith(db, work));
  if (store.deliveries > 0) await wakeDeliveryWorkers();
  return result;
}
