/**
 * The build step of `npm start` (server/start.ts): `next build` when the sources are newer than the last build,
 * under a lock so two starts in one checkout never build into `.next` at once. The first start says what it is
 * doing and roughly how long it takes, and every 30 s how long it has been at it (next build is silent for
 * minutes between its steps on a busy machine), so a fresh install does not look hung. Next.js telemetry is off
 * unless the operator turned it on.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "server", "drizzle", "next.config.ts", "package.json", "postcss.config.mjs"];

/** How often the start says the build is still running. */
const BUILD_PROGRESS_EVERY_MS = 30_000;

/**
 * The environment with Next.js's anonymous telemetry off — a self-hosted product phones nowhere by default —
 * unless NEXT_TELEMETRY_DISABLED is already set (`NEXT_TELEMETRY_DISABLED=0` opts in).
 */
export function withTelemetryOff(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, NEXT_TELEMETRY_DISABLED: env.NEXT_TELEMETRY_DISABLED ?? "1" };
}

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

async function withBuildLock(dir: string, fn: () => Promise<void>): Promise<void> {
  const lock = path.join(dir, ".next-build.lock");
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
    await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

type TBuildOptions = {
  /** The project directory (the sources, `.next/BUILD_ID` and the lock are in it). */
  dir: string;
  /** The build command: node with these arguments. */
  args: string[];
  log: (line: string) => void;
  progressEveryMs: number;
};

const DEFAULTS: TBuildOptions = {
  dir: ".",
  args: [path.join("node_modules", "next", "dist", "bin", "next"), "build"],
  log: (line) => console.log(line),
  progressEveryMs: BUILD_PROGRESS_EVERY_MS,
};

/** Builds when the sources are newer than the build; the exit status of a failed build, else null. */
export async function buildIfStale(options: Partial<TBuildOptions> = {}): Promise<number | null> {
  const { dir, args, log, progressEveryMs } = { ...DEFAULTS, ...options };
  const buildId = path.join(dir, ".next", "BUILD_ID");
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(dir, s))));
  if (builtAt > changedAt) return null;
  log(
    builtAt
      ? "Sources changed since the last build: building the app again (next build)…"
      : "First start: building the app (next build). This runs once and takes about 1–5 minutes (up to 10 on a busy " +
          "two-core machine); later starts reuse the build and are up in seconds.",
  );
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const ticker = setInterval(() => log(`…still building (${seconds()} s so far)`), progressEveryMs);
  const status = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: dir,
      stdio: ["ignore", "inherit", "inherit"],
      env: withTelemetryOff({ ...process.env, NODE_ENV: "production" }),
    });
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
  clearInterval(ticker);
  if (status !== 0) {
    log("next build failed");
    return status;
  }
  log(`Build finished in ${seconds()} s.`);
  return null;
}

/** `npm start`'s build: under the lock, and exits the process (once the lock is released) if it failed. */
export async function buildIfNeeded(): Promise<void> {
  let failed: number | null = null;
  await withBuildLock(".", async () => {
    failed = await buildIfStale();
  });
  if (failed !== null) process.exit(failed);
}
