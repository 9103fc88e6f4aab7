/**
 * What every long-running process does first: read `.env`, generate missing secrets, validate the
 * configuration (failing fast with a readable message), open and migrate the database.
 */
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { closeDb, getDbHandle, type DbHandle } from "./db/client";
import { EnvError, env, resetEnvCache, type TEnv } from "./env";
import { ensureSecrets } from "./secrets";

/**
 * `generateSecrets: false` (backup and restore): secrets missing from the environment and from DATA_DIR stay
 * missing — a key generated now would not be the one the data was encrypted with.
 */
export function loadConfig(options: { generateSecrets?: boolean } = {}): TEnv {
  if (existsSync(".env")) process.loadEnvFile(".env");
  try {
    resetEnvCache();
    const dataDir = env().DATA_DIR;
    const configured = Boolean(process.env.NEXTAUTH_SECRET && process.env.ENCRYPTION_KEY);
    if (options.generateSecrets === false) return env();
    ensureSecrets(dataDir);
    resetEnvCache();
    const e = env();
    if (e.DATABASE_URL && !configured) {
      // Every process sharing the database must hold the same ENCRYPTION_KEY, or webhook secrets written by
      // one cannot be decrypted by another; a key generated into this machine's data directory is not shared.
      console.warn(
        `NEXTAUTH_SECRET and ENCRYPTION_KEY are not configured: using the ones kept in ${path.resolve(dataDir, "secrets.json")}. ` +
          "With several processes on PostgreSQL (web replicas, npm run worker on other machines) set both, identically, everywhere.",
      );
    }
    process.env.NEXTAUTH_URL ||= e.publicUrl;
    return e;
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export class DatabaseInUseError extends Error {
  override name = "DatabaseInUseError";
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no cross-process lock and two processes on one directory corrupt it silently, so every process
 * that opens it through here (`npm start`, the worker, `npm run admin`) first takes `<dir>.lock` holding its
 * pid. A lock whose process is gone is stale and taken over. Released when the process exits.
 */
export function lockPgliteDir(dir: string): () => void {
  const file = `${dir}.lock`;
  const release = () => {
    process.off("exit", release);
    if (existsSync(file) && readFileSync(file, "utf8") === String(process.pid)) unlinkSync(file);
  };
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      process.on("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number(readFileSync(file, "utf8"));
      if (holder === process.pid) return () => {};
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder)) {
        throw new DatabaseInUseError(
          `The embedded database ${dir} is in use by process ${holder} (npm start?). Stop it first: two processes ` +
            `on one PGlite directory corrupt it. (Remove ${file} only if no such process is running.)`,
        );
      }
      unlinkSync(file);
    }
  }
  throw new DatabaseInUseError(`Could not take the lock ${file}`);
}

export async function openDatabase(): Promise<DbHandle> {
  const e = env();
  if (!e.DATABASE_URL) lockPgliteDir(e.pgliteDir);
  return getDbHandle();
}

/** A clean stop that takes longer than this (a job that does not heed its abort signal) ends the process anyway. */
export const SHUTDOWN_LIMIT_MS = 30_000;

/** Runs `cleanup` once on SIGTERM/SIGINT, then exits; after `limitMs` it exits with status 1 whatever is left. */
export function onShutdown(cleanup: () => Promise<void>, limitMs: number = SHUTDOWN_LIMIT_MS): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ level: 30, msg: `received ${signal}, shutting down` }));
    setTimeout(() => {
      console.error(JSON.stringify({ level: 50, msg: `the clean stop took more than ${limitMs / 1000} s: exiting without it` }));
      process.exit(1);
    }, limitMs).unref();
    cleanup()
      .then(() => closeDb())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}
