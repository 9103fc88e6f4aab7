/**
 * The worker loop: a wake-up runs the jobs at once (no waiting for the poll), overlapping wake-ups are
 * coalesced into one more run, a failing job does not stop the others, and stop() waits for the running tick.
 * Also: `npm run worker` refuses to run on PGlite (one process per data directory).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useTestDb } from "@/server/test/db";
import { startWorker, WAKE_CHANNEL, type TJob } from "./worker";

const t = useTestDb();

describe("startWorker", () => {
  it("runs jobs on wake-up, survives a failing job and stops after the running tick", async () => {
    const runs: string[] = [];
    let release: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    const jobs: TJob[] = [
      {
        name: "boom",
        run: async () => {
          throw new Error("boom");
        },
      },
      {
        name: "count",
        run: async () => {
          runs.push("count");
          await gate;
        },
      },
    ];
    const worker = await startWorker(t.handle, jobs, { pollMs: 60_000 });
    await worker.tick();
    const afterStart = runs.length;
    expect(afterStart).toBeGreaterThanOrEqual(1);

    gate = new Promise<void>((r) => (release = r));
    const running = worker.tick();
    // Two wake-ups while a tick runs → exactly one more run afterwards, not two.
    void worker.tick();
    void worker.tick();
    release();
    await running;
    expect(runs.length).toBe(afterStart + 2);

    // A notification on the wake channel (pg_notify, or the in-process bus on PGlite) starts a run by itself.
    const woken = new Promise<void>((resolve) => jobs.push({ name: "woken", run: async () => resolve() }));
    await t.handle.notify(WAKE_CHANNEL);
    await woken;

    gate = new Promise<void>((r) => (release = r));
    const inFlight = worker.tick();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await Promise.all([inFlight, stopping]);
    expect(stopped).toBe(true);
  });
});

describe("npm run worker", () => {
  it("refuses to run without DATABASE_URL, explaining why", () => {
    const env = { ...process.env, DATABASE_URL: "", DATA_DIR: "/tmp/foliosign-worker-refusal" };
    const result = spawnSync(process.execPath, ["--import", "tsx", "server/jobs/worker-main.ts"], { env, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("npm run worker needs PostgreSQL (set DATABASE_URL)");
    // A child process started through tsx: slow on a loaded machine, so a generous limit.
  }, 120_000);
});
