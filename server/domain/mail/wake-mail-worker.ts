import { getDbHandle, WAKE_CHANNEL } from "@/server/db/client";
import { logger } from "@/server/lib/logger";

/**
 * Wakes the workers (pg_notify on PostgreSQL, an in-process event on PGlite) so queued mail goes out now
 * rather than at the next poll. Call it only AFTER the transaction that queued the mail has committed. A lost
 * wake-up delays, never loses: workers also poll every WORKER_POLL_MS.
 */
export async function wakeMailWorker(): Promise<void> {
  try {
    await (await getDbHandle()).notify(WAKE_CHANNEL);
  } catch (err) {
    logger().warn({ err }, "could not wake the mail worker; polling will pick the mail up");
  }
}
