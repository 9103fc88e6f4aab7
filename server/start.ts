/**
 * `npm start`: build if needed, migrate, sweep the temporary directories a killed server left behind, serve on
 * PORT with the client address recorded from the socket, and run the worker in-process. Stops cleanly on
 * SIGTERM/SIGINT, within 10 s of requests in flight even when a client holds a connection open (http/close-server.ts).
 */
import { loadConfig, onShutdown, openDatabase } from "./boot";
import { buildIfNeeded, withTelemetryOff } from "./build-app";
import { createHttpServer, parseTrustedProxies } from "./http-server";
import { closeHttpServer } from "./http/close-server";
import { allJobs } from "./jobs/all-jobs";
import { checkSealingAtStart } from "./domain/sealing/check-sealing-at-start";
import { staleAfterMs, sweepStaleTempDirs } from "./documents-io/sweep-temp-dirs";
import { startWorker, type TWorker } from "./jobs/worker";
import { logger } from "./lib/logger";

async function main(): Promise<void> {
  // A self-hosted product phones nowhere by default: Next.js's telemetry is off (build-app.ts).
  Object.assign(process.env, withTelemetryOff({ ...process.env, NODE_ENV: "production" }));
  const config = loadConfig();
  if (process.env.SKIP_BUILD !== "1") await buildIfNeeded();
  const handle = await openDatabase();
  // Uploads and conversions happen in this process only (the worker makes no temporary files), so it sweeps.
  await sweepStaleTempDirs({ olderThanMs: staleAfterMs(config) });
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname: config.HOST, port: config.PORT });
  await app.prepare();
  const server = createHttpServer(app.getRequestHandler(), parseTrustedProxies(config.TRUSTED_PROXIES));
  if (config.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    logger().warn("WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may target private and loopback addresses. Never enable this in production.");
  }
  await checkSealingAtStart(handle.db);
  if (config.BACKUP_DIR && handle.kind === "postgres") {
    logger().warn(
      "BACKUP_DIR is set but the database is PostgreSQL: scheduled backups are of the embedded database only. Back PostgreSQL up with its own tools (README, Backups).",
    );
  } else if (config.BACKUP_DIR && !config.RUN_WORKER) {
    logger().warn("BACKUP_DIR is set but RUN_WORKER=false: the worker makes the scheduled backups, so none will be made.");
  } else if (config.BACKUP_DIR) {
    logger().info({ dir: config.BACKUP_DIR, everyHours: config.BACKUP_EVERY_HOURS, keep: config.BACKUP_KEEP }, "scheduled backups on");
  }
  let worker: TWorker | undefined;
  if (config.RUN_WORKER) {
    worker = await startWorker(handle, allJobs(), { pollMs: config.WORKER_POLL_MS });
  } else if (handle.kind === "pglite") {
    logger().warn(
      "RUN_WORKER=false on the embedded database: no webhook will be delivered and nothing will be pruned, because " +
        "`npm run worker` cannot share a PGlite directory. Unset RUN_WORKER, or use PostgreSQL (DATABASE_URL) with `npm run worker`.",
    );
  }
  // Requests in flight get up to 10 s; the worker finishes its tick meanwhile; then the database closes (boot.ts).
  onShutdown(async () => {
    await Promise.all([closeHttpServer(server), worker?.stop()]);
  });
  server.listen(config.PORT, config.HOST, () => {
    logger().info(
      { port: config.PORT, store: handle.kind, dataDir: handle.kind === "pglite" ? config.pgliteDir : undefined },
      `Foliosign listening on ${config.publicUrl}`,
    );
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
