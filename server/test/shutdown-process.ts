/**
 * For the shutdown test: what `npm start` does around Next's server — load the configuration, open the
 * embedded database (taking its lock), start the in-process worker, register the SIGTERM/SIGINT handler —
 * then prints "ready". Next itself is left out (it needs a build); its server's close is one more cleanup step.
 */
import { loadConfig, onShutdown, openDatabase } from "../boot";
import { allJobs } from "../jobs/all-jobs";
import { startWorker } from "../jobs/worker";

async function main(): Promise<void> {
  const config = loadConfig();
  const handle = await openDatabase();
  const worker = await startWorker(handle, allJobs(), { pollMs: config.WORKER_POLL_MS });
  // For the limit's test: a cleanup that never ends, and a short limit.
  const hang = process.env.SHUTDOWN_TEST_HANG === "1";
  onShutdown(hang ? () => new Promise<void>(() => {}) : () => worker.stop(), hang ? 500 : undefined);
  console.log("ready");
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
