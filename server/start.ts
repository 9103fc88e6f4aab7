/**
 * `npm start`: build if needed, migrate, sweep the temporary directories a killed server left behind, serve on
 * PORT with the client address recorded from the socket, and run the worker in-process. Stops cleanly on
 * SIGTERM/SIGINT.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig, onShutdown, openDatabase } from "./boot";
import { createHttpServer, parseTrustedProxies } from "./http-server";
import { allJobs } from "./jobs/all-jobs";
import { checkSealingAtStart } from "./domain/sealing/check-sealing-at-start";
import { staleAfterMs, sweepStaleTempDirs } from "./documents-io/sweep-temp-dirs";
import { startWorker, type TWorker } from "./jobs/worker";
import { logger } from "./lib/logger";

const SOURCES = ["app", "components", "server", "drizzle", "next.config.ts", "package.json", "postcss.config.mjs"];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Two starts in one checkout (e.g. two Playwright runs) must not build into `.next` at the same time. */
function withBuildLock(fn: () => void): void {
  const lock = path.join(".next-build.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than 15 minutes belongs to a build that died.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function buildIfNeeded(): void {
  let failed: number | null = null;
  withBuildLock(() => {
    failed = buildIfStale();
  });
  // Exits only once the lock is released: an exit inside the lock left it behind for the next start to wait on.
  if (failed !== null) process.exit(failed);
}

/** Builds when the sources are newer than the build; the exit status of a failed `next build`, else null. */
function buildIfStale(): number | null {
  const buildId = path.join(".next", "BUILD_ID");
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map(newestMtime));
  if (builtAt > changedAt) return null;
  console.log(builtAt ? "Sources changed since the last build: building…" : "No build found: building (next build)…");
  const result = spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("next build failed");
    return result.status ?? 1;
  }
  return null;
}

async function main(): Promise<void> {
  Object.assign(process.env, { NODE_ENV: "production" });
  const config = loadConfig();
  if (process.env.SKIP_BUILD !== "1") buildIfNeeded();
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
  let worker: TWorker | undefined;
  if (config.RUN_WORKER) {
    worker = await startWorker(handle, allJobs(), { pollMs: config.WORKER_POLL_MS });
  } else if (handle.kind === "pglite") {
    logger().warn(
      "RUN_WORKER=false on the embedded database: no webhook will be delivered and nothing will be pruned, because " +
        "`npm run worker` cannot share a PGlite directory. Unset RUN_WORKER, or use PostgreSQL (DATABASE_URL) with `npm run worker`.",
    );
  }
  onShutdown(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await worker?.stop();
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
