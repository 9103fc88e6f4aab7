import { getDbHandle, WAKE_CHANNEL } from "@/server/db/client";
import { logger } from "@/server/lib/logger";

/**
 * Tells every worker that deliveries are due: pg_notify on PostgreSQL (all processes), an in-process event
 * on PGlite. Call it only AFTER the transaction that recorded events has committed — a worker woken earlier
 * would not see the rows. A failed notification loses nothing: workers also poll every WORKER_POLL_MS.
 */
export async function wakeDeliveryWorkers(): Promise<void> {
  try {
    const handle = await getDbHandle();
    await handle.notify(WAKE_CHANNEL);
  } catch (err) {
    logger().warn({ err }, "could not wake delivery workers; polling will pick the deliveries up");
  }
}
