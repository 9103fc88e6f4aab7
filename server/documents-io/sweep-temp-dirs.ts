/**
 * At start, removes the temporary directories (`temp-dirs.ts`) that a process killed mid-upload or
 * mid-conversion (SIGKILL, out of memory, a power cut) left behind: they hold uploaded documents. An entry
 * directly under the root (`os.tmpdir()`) is removed only when all of these hold:
 * - **its name is exactly ours** (`isTempDirName`: so a test's `foliosign-upload-test-XXXXXX` or anybody
 *   else's file is not touched);
 * - it is a **directory**, not a symlink, **owned by this process's user**;
 * - **nothing in it changed for `STALE_AFTER_MS`** (the newest mtime of the directory and everything inside
 *   it): a second server sharing the TMPDIR is writing its upload's copy, or its LibreOffice its profile, as
 *   it works, and its longest step after the last write (an inspection, a conversion) is bounded by
 *   INSPECT_TIMEOUT_MS / CONVERT_TIMEOUT_MS, far below an hour; `staleAfterMs(config)` grows with them.
 */
import { lstat, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TEnv } from "@/server/env";
import { now } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";
import { isTempDirName } from "./temp-dirs";

/** An hour: no live upload or conversion leaves its directory unchanged that long. */
export const STALE_AFTER_MS = 60 * 60_000;

/** The sweep's age: an hour, or more when a configured time limit makes a live step last longer. */
export function staleAfterMs(config: Pick<TEnv, "INSPECT_TIMEOUT_MS" | "CONVERT_TIMEOUT_MS">): number {
  return Math.max(STALE_AFTER_MS, 2 * config.INSPECT_TIMEOUT_MS, 2 * config.CONVERT_TIMEOUT_MS);
}

export type TSweepOptions = {
  /** Defaults to `os.tmpdir()`, where `makeTempDir` creates the directories. */
  root?: string;
  olderThanMs?: number;
  now?: Date;
};

/** Removes our stale temporary directories (see the header); the names removed. Never throws. */
export async function sweepStaleTempDirs(options: TSweepOptions = {}): Promise<string[]> {
  const root = options.root ?? os.tmpdir();
  const cutoff = (options.now ?? now()).getTime() - (options.olderThanMs ?? STALE_AFTER_MS);
  const uid = process.getuid?.();
  const names = await readdir(root).catch((err: unknown) => {
    logger().warn({ root, err }, "temporary directory sweep: cannot list the directory");
    return [] as string[];
  });
  const removed: string[] = [];
  for (const name of names.filter(isTempDirName)) {
    const dir = path.join(root, name);
    try {
      const st = await lstat(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      if ((await newestMtimeMs(dir, st.mtimeMs)) >= cutoff) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(name);
    } catch (err) {
      // Another process removed it meanwhile, or it is not ours to read: leave it.
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") logger().warn({ dir, err }, "temporary directory sweep: skipped");
    }
  }
  if (removed.length > 0) logger().info({ root, removed }, "removed temporary directories left by an interrupted upload or conversion");
  return removed;
}

/** The newest mtime of a directory and everything under it, links not followed. */
async function newestMtimeMs(dir: string, own: number): Promise<number> {
  let newest = own;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const st = await lstat(file);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtimeMs(file, st.mtimeMs) : st.mtimeMs);
  }
  return newest;
}
