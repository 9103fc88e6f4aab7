/**
 * The worker loop: runs every job (see ./all-jobs.ts) on each tick. A tick starts when a wake-up arrives
 * (pg_notify on PostgreSQL, an in-process event on PGlite) or, as a backstop, every WORKER_POLL_MS.
 * `stop()` lets the running tick finish (jobs receive an AbortSignal to cut waits short).
 */
import { WAKE_CHANNEL, type DbHandle } from "@/server/db/client";
import { logger } from "@/server/lib/logger";

export { WAKE_CHANNEL } from "@/server/db/client";

export type TJob = {
  name: string;
  run(handle: DbHandle, signal: AbortSignal): Promise<void>;
  /** Optional: work a job keeps going between ticks (webhook attempts in flight) is finished or handed back here. */
  stop?(): Promise<void>;
};

export type TWorker = { stop(): Promise<void>; tick(): Promise<void> };

export async function startWorker(handle: DbHandle, jobs: readonly TJob[], opts: { pollMs: number }): Promise<TWorker> {
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const runOnce = async () => {
    for (const job of jobs) {
      if (controller.signal.aborted) return;
      try {
        await job.run(handle, controller.signal);
      } catch (err) {
        logger().error({ err, job: job.name }, "job failed");
      }
    }
  };

  const tick = (): Promise<void> => {
    if (controller.signal.aborted) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await runOnce();
      } while (again && !controller.signal.aborted);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const schedule = () => {
    timer = setTimeout(() => {
      void tick().finally(() => {
        if (!controller.signal.aborted) schedule();
      });
    }, opts.pollMs);
    timer.unref();
  };

  const unlisten = await handle.listen(WAKE_CHANNEL, () => void tick());
  schedule();
  void tick();
  logger().info({ jobs: jobs.map((j) => j.name), store: handle.kind }, "worker started");

  return {
    tick,
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await unlisten().catch(() => {});
      if (running) await running;
      await Promise.all(jobs.map((job) => job.stop?.().catch((err: unknown) => logger().error({ err, job: job.name }, "job stop failed"))));
      logger().info("worker stopped");
    },
  };
}
