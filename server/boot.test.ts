/**
 * Protects the clean stop of a long-running process (issue: "a clean shutdown on SIGTERM/SIGINT that closes
 * the database"): on SIGTERM it stops the worker, closes the embedded database and releases its lock, then
 * exits 0 — so the next start (or `npm run admin`) can open the same data directory at once.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "./db/client";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "foliosign-shutdown-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function runUntilReady(signal: NodeJS.Signals, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "production" as const, ...extraEnv };
  const child = spawn(process.execPath, ["--import", "tsx", "server/test/shutdown-process.ts"], { env });
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("ready\n") && !child.killed) child.kill(signal);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("shutdown", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "on %s stops the worker, closes PGlite, releases its lock and exits 0",
    async (signal) => {
      const { code, output } = await runUntilReady(signal);
      expect(output).toContain(`received ${signal}, shutting down`);
      expect(code).toBe(0);
      const pgliteDir = path.resolve(dataDir, "pglite");
      expect(existsSync(`${pgliteDir}.lock`)).toBe(false);
      // The directory opens again at once, with the migrated schema intact.
      const handle = await openPglite({ dataDir: pgliteDir });
      const result = await handle.db.execute("select count(*)::int as n from organisations");
      await handle.close();
      expect(JSON.stringify(result)).toContain('"n":0');
      // A child process that boots the app (tsx, migrations): slow on a loaded machine, so a generous limit.
    },
    180_000,
  );

  it("exits 1 when the clean stop does not end within its limit", async () => {
    const { code, output } = await runUntilReady("SIGTERM", { SHUTDOWN_TEST_HANG: "1" });
    expect(output).toContain("received SIGTERM, shutting down");
    expect(output).toContain("the clean stop took more than 0.5 s: exiting without it");
    expect(code).toBe(1);
  }, 180_000);
});
