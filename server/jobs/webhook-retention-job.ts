import { dropPausedDeliveries } from "@/server/domain/webhooks/drop-paused-deliveries";
import { pruneDeliveries } from "@/server/domain/webhooks/prune-deliveries";
import { now } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";
import type { TJob } from "./worker";

/**
 * Webhook housekeeping, throttled per process: drops queued deliveries of paused endpoints that slipped past a
 * pause (every `sweepEveryMs`), and prunes finished deliveries older than WEBHOOK_RETENTION_DAYS (every `pruneEveryMs`).
 */
export function createWebhookRetentionJob(opts: { sweepEveryMs?: number; pruneEveryMs?: number } = {}): TJob {
  const sweepEveryMs = opts.sweepEveryMs ?? 60_000;
  const pruneEveryMs = opts.pruneEveryMs ?? 10 * 60_000;
  let lastSweep = -Infinity;
  let lastPrune = -Infinity;
  return {
    name: "webhook-retention",
    async run(handle) {
      const at = now().getTime();
      if (at - lastSweep >= sweepEveryMs) {
        lastSweep = at;
        const dropped = await dropPausedDeliveries(handle.db);
        if (dropped) logger().info({ dropped }, "dropped queued deliveries of paused webhook endpoints");
      }
      if (at - lastPrune >= pruneEveryMs) {
        lastPrune = at;
        const pruned = await pruneDeliveries(handle.db);
        if (pruned.deliveries || pruned.events) logger().info(pruned, "pruned old webhook deliveries");
      }
    },
  };
}
