/**
 * Two processes on one PGlite directory corrupt it silently, so `npm run admin` must refuse while `npm start`
 * holds the embedded database. These tests drive the lock of server/boot.ts with real lock files: a live
 * holder refuses with a clear message, a stale lock (its process gone) is taken over, the lock is ours after.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, lockPgliteDir } from "@/server/boot";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempPgliteDir(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "foliosign-lock-"));
  dirs.push(root);
  return path.join(root, "pglite");
}

describe("lockPgliteDir", () => {
  it("takes a free lock and writes this process's pid", () => {
    const dir = tempPgliteDir();
    lockPgliteDir(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    lockPgliteDir(dir); // re-entrant within one process
  });

  it("refuses while another live process holds it", () => {
    const dir = tempPgliteDir();
    writeFileSync(`${dir}.lock`, String(process.ppid));
    expect(() => lockPgliteDir(dir)).toThrow(DatabaseInUseError);
    expect(() => lockPgliteDir(dir)).toThrow(`in use by process ${process.ppid}`);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.ppid));
  });

  it("takes over a stale lock whose process has exited", () => {
    const dir = tempPgliteDir();
    const exited = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    writeFileSync(`${dir}.lock`, exited.stdout);
    lockPgliteDir(dir);
    expect(readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
  });
});
