/**
 * Runs a declared job (server/lib/jobs.ts) as one of the worker's jobs. On a tick (unless the job looked less
 * than `everyMs` ago and left nothing behind) it claims and handles due items one at a time, each in its own
 * transaction, until none is due or the tick's budget is spent (then the next tick goes on at once).
 *
 * A failing item: its transaction rolls back, so it stays due; the error is logged and THIS worker skips the
 * item for `retryAfterMs`, doubling per failure up to an hour, while it goes on with the other items. The
 * backoff is in-process on purpose: it needs no column in the job's table, and a restart or another worker
 * tries the item again (a poison item costs one failed transaction per worker per backoff period). A job
 * whose failures must be remembered or end somewhere writes that into its own state — e.g. moves `send_at`
 * or sets a FAILED status in a separate transaction — the state being the schedule.
 */
import type { DbHandle } from "@/server/db/client";
import { now } from "@/server/lib/clock";
import { runDueItem, type TDeclaredJob } from "@/server/lib/jobs";
import { logger } from "@/server/lib/logger";
import type { TJob } from "./worker";

const DEFAULT_BUDGET = 100;
const DEFAULT_RETRY_AFTER_MS = 60_000;
const MAX_RETRY_AFTER_MS = 60 * 60_000;
/** Failing items remembered per job; beyond that the oldest is forgotten (and simply tried again). */
const MAX_BACKOFFS = 1000;

type TBackoff = { failures: number; until: number };

export function runDeclaredJob(job: TDeclaredJob): TJob {
  const budget = job.budget ?? DEFAULT_BUDGET;
  const retryAfterMs = job.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const backoffs = new Map<string, TBackoff>();
  let lastLook = -Infinity;
  let leftOver = false;

  const backOff = (id: string, at: number) => {
    const failures = (backoffs.get(id)?.failures ?? 0) + 1;
    backoffs.delete(id);
    if (backoffs.size >= MAX_BACKOFFS) backoffs.delete(backoffs.keys().next().value as string);
    backoffs.set(id, { failures, until: at + Math.min(retryAfterMs * 2 ** (failures - 1), MAX_RETRY_AFTER_MS) });
    return failures;
  };

  return {
    name: job.name,
    async run(handle: DbHandle, signal: AbortSignal) {
      const start = now().getTime();
      if (!leftOver && job.everyMs !== undefined && start - lastLook < job.everyMs) return;
      lastLook = start;
      leftOver = false;
      // Handled in this tick: never claimed twice in one tick, even by a handler that left its item due.
      const handled: string[] = [];
      let failed = 0;
      for (let spent = 0; spent < budget; spent++) {
        if (signal.aborted) return;
        const at = now();
        const skip = [...handled];
        for (const [id, b] of backoffs) if (b.until > at.getTime()) skip.push(id);
        const run = await runDueItem(handle.db, job, { at, skip });
        if (!run) break;
        if (!("error" in run)) {
          handled.push(run.item.id);
          backoffs.delete(run.item.id);
          continue;
        }
        failed += 1;
        const failures = backOff(run.item.id, at.getTime());
        logger().error({ err: run.error, job: job.name, item: run.item.id, failures }, "job item failed; it stays due and this worker retries it later");
      }
      if (handled.length + failed >= budget) leftOver = true;
      if (handled.length > 0) logger().info({ job: job.name, handled: handled.length, failed, more: leftOver }, "job handled due items");
    },
  };
}
