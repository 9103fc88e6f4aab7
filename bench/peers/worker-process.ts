/**
 * The worker process of `npm run bench:peers` (started as `peers.ts --worker <peer> <database url>`): sets up
 * one peer's worker, says "ready", starts on "go", answers "cpu" with its process.cpuUsage() since "go", stops
 * and exits on "stop". Settings, for all three: CONCURRENCY attempts in flight, a pool of POOL connections.
 * - ours: the worker as it ships (createWebhookDeliveryJob under startWorker);
 * - graphile-worker: concurrentJobs, localQueue.size 500, completeJobBatchDelay 0, failJobBatchDelay 0;
 * - pg-boss: localConcurrency 2 × batchSize 32, burstWhenBatchFull (a batch completes when its 32 are done).
 * BENCH_CPU_PROFILE=<dir> writes a CPU profile per worker process (sampled every BENCH_CPU_PROFILE_US µs, 100 by default).
 */
import path from "node:path";
import { CONCURRENCY, POOL, QUEUE, type TPeer, type TPeerJob } from "./config";

/** The peers' job: sign the body as ours does (signWebhook) and POST it with undici keep-alive. */
async function peerPoster() {
  const { Agent, request } = await import("undici");
  const { signWebhook } = await import("@/server/domain/webhooks/delivery/sign-webhook");
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  return async (job: TPeerJob) => {
    const headers = signWebhook({
      event: "PACKAGE_SENT",
      deliveryId: job.id,
      timestamp: Math.floor(Date.now() / 1000),
      body: job.body,
      secrets: [job.secret],
    });
    const res = await request(job.url, {
      method: "POST",
      body: job.body,
      headers,
      dispatcher: agent,
    });
    await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`receiver answered ${res.statusCode}`);
  };
}

export async function workerProcess(peer: TPeer, url: string) {
  let start: () => Promise<void>;
  let stop: () => Promise<void>;
  if (peer === "ours") {
    const { openPostgres, setDbHandle } = await import("@/server/db/client");
    const { createWebhookDeliveryJob } = await import("@/server/jobs/webhook-delivery-job");
    const { startWorker } = await import("@/server/jobs/worker");
    const handle = await openPostgres(url, { max: POOL });
    setDbHandle(handle);
    let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
    start = async () => {
      worker = await startWorker(handle, [createWebhookDeliveryJob({ concurrency: CONCURRENCY })], { pollMs: 1000 });
    };
    stop = async () => {
      await worker?.stop();
      await handle.close();
    };
  } else if (peer === "graphile") {
    const { run } = await import("graphile-worker");
    const post = await peerPoster();
    let runner: Awaited<ReturnType<typeof run>> | undefined;
    start = async () => {
      runner = await run({
        noHandleSignals: true,
        taskList: { [QUEUE]: async (payload) => post(payload as TPeerJob) },
        logger: new (await import("graphile-worker")).Logger(() => () => {}),
        preset: {
          worker: {
            connectionString: url,
            concurrentJobs: CONCURRENCY,
            maxPoolSize: POOL,
            pollInterval: 1000,
            localQueue: { size: 500 },
            completeJobBatchDelay: 0,
            failJobBatchDelay: 0,
          },
        },
      });
    };
    stop = async () => {
      await runner?.stop();
    };
  } else {
    const { PgBoss } = await import("pg-boss");
    const post = await peerPoster();
    const boss = new PgBoss({ connectionString: url, max: POOL });
    boss.on("error", (err) => console.error("pg-boss:", err));
    await boss.start();
    start = async () => {
      await boss.work<TPeerJob>(
        QUEUE,
        {
          localConcurrency: 2,
          batchSize: 32,
          burstWhenBatchFull: true,
          pollingIntervalSeconds: 1,
        },
        async (jobs) => {
          await Promise.all(jobs.map((j) => post(j.data)));
        },
      );
    };
    stop = async () => {
      await boss.stop({ graceful: true });
    };
  }
  let cpu0 = process.cpuUsage();
  // BENCH_CPU_PROFILE=<dir>: a CPU profile of each worker process from "go" to "cpu" (<dir>/<peer>-<pid>.cpuprofile).
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const profiler = profileDir ? new (await import("node:inspector/promises")).Session() : undefined;
  process.on("message", async (m: { type: string }) => {
    if (m.type === "go") {
      if (profiler) {
        profiler.connect();
        await profiler.post("Profiler.enable");
        // Every 100 µs unless BENCH_CPU_PROFILE_US says otherwise (V8's default, 1 ms, leaves ~2,000 samples a drain).
        await profiler.post("Profiler.setSamplingInterval", { interval: Number(process.env.BENCH_CPU_PROFILE_US ?? 100) });
        await profiler.post("Profiler.start");
      }
      cpu0 = process.cpuUsage();
      void start();
    } else if (m.type === "cpu") {
      const c = process.cpuUsage(cpu0);
      if (profiler) {
        const { profile } = await profiler.post("Profiler.stop");
        const fs = await import("node:fs");
        fs.mkdirSync(profileDir!, { recursive: true });
        fs.writeFileSync(path.join(profileDir!, `${peer}-${process.pid}.cpuprofile`), JSON.stringify(profile));
      }
      process.send?.({ type: "cpu", seconds: (c.user + c.system) / 1e6 });
    } else if (m.type === "stop") {
      void stop().finally(() => process.exit(0));
    }
  });
  process.send?.({ type: "ready" });
}
