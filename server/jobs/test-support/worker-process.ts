/**
 * A real worker process for the crash-safety test: the same worker loop and jobs as `npm run worker`, on the
 * PostgreSQL database named by DATABASE_URL. Logs JSON lines on stdout (LOG_LEVEL=info). Its clock can be
 * moved so a test can play "after the lease has expired" without waiting: argv[2] is an initial offset in
 * milliseconds, and JSON lines on stdin steer it while it runs —
 * - {"cmd":"tick"}             runs one worker tick now, then logs {"msg":"ticked"};
 * - {"cmd":"advance","ms":N}   moves this process's clock N ms forward, runs a tick, then logs {"msg":"advanced"}.
 */
import { createInterface } from "node:readline";
import { openPostgres, setDbHandle } from "@/server/db/client";
import { env } from "@/server/env";
import { allJobs } from "@/server/jobs/all-jobs";
import { startWorker } from "@/server/jobs/worker";
import { setClock } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";

async function main(): Promise<void> {
  let offsetMs = Number(process.argv[2] ?? "0");
  setClock(() => new Date(Date.now() + offsetMs));
  const url = env().DATABASE_URL;
  if (!url) throw new Error("worker-process needs DATABASE_URL");
  const handle = await openPostgres(url, { max: 4 });
  setDbHandle(handle);
  const worker = await startWorker(handle, allJobs(), { pollMs: env().WORKER_POLL_MS });
  createInterface({ input: process.stdin }).on("line", (text) => {
    const command = JSON.parse(text) as { cmd: "tick" } | { cmd: "advance"; ms: number };
    if (command.cmd === "advance") offsetMs += command.ms;
    void worker.tick().then(() => logger().info({ offsetMs }, command.cmd === "advance" ? "advanced" : "ticked"));
  });
  process.on("SIGTERM", () => {
    void worker
      .stop()
      .then(() => handle.close())
      .then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
