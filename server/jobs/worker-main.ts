/** `npm run worker`: the delivery/scheduler worker alone, for scaling out on PostgreSQL. */
import { loadConfig, onShutdown, openDatabase } from "../boot";
import { checkSealingAtStart } from "../domain/sealing/check-sealing-at-start";
import { logger } from "../lib/logger";
import { allJobs } from "./all-jobs";
import { startWorker } from "./worker";

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error(
      "npm run worker needs PostgreSQL (set DATABASE_URL).\n" +
        "With the embedded PGlite database the worker already runs inside `npm start`: only one process may open a PGlite data directory.",
    );
    process.exit(1);
  }
  const handle = await openDatabase();
  if (config.WEBHOOK_ALLOW_PRIVATE_TARGETS) logger().warn("WEBHOOK_ALLOW_PRIVATE_TARGETS is on: never in production.");
  await checkSealingAtStart(handle.db);
  const worker = await startWorker(handle, allJobs(), { pollMs: config.WORKER_POLL_MS });
  onShutdown(() => worker.stop());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
