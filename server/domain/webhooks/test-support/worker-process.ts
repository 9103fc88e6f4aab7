/**
 * A real worker process for the crash-safety test: the same worker loop and jobs as `npm run worker`, on the
 * PostgreSQL database named by DATABASE_URL. argv[2] shifts this process's clock (milliseconds), so a test
 * can play "after the lease has expired" without waiting for it. Logs JSON lines on stdout (LOG_LEVEL=info).
 */
import { openPostgres, setDbHandle } from "@/server/db/client";
import { env } from "@/server/env";
import { allJobs } from "@/server/jobs/all-jobs";
import { startWorker } from "@/server/jobs/worker";
import { setClock } from "@/server/lib/clock";

async function main(): Promise<void> {
  const offsetMs = Number(process.argv[2] ?? "0");
  if (offsetMs) setClock(() => new Date(Date.now() + offsetMs));
  const url = env().DATABASE_URL;
  if (!url) throw new Error("worker-process needs DATABASE_URL");
  const handle = await openPostgres(url, { max: 4 });
  setDbHandle(handle);
  const worker = await startWorker(handle, allJobs(), { pollMs: env().WORKER_POLL_MS });
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
