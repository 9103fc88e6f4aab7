/**
 * Webhook delivery against its peers (not a test): `npm run bench:peers`. Our worker, graphile-worker and
 * pg-boss drain the same queue of deliveries — one job per delivery that signs the same ~600-byte body with a
 * fresh timestamp (signWebhook, both signature schemes) and POSTs it with undici keep-alive to the same
 * loopback receiver (bench/webhook-receiver.mjs, its own process) — on the same PostgreSQL, each in its own
 * scratch database (`foliosign_peers_<peer>_<pid>`, dropped at the end), in alternating rounds.
 *
 * A round, for each peer in turn (the order rotates from round to round): the queue is reset and pre-filled
 * with every delivery, `VACUUM ANALYZE`d (what autovacuum keeps on a running system), the prefill's
 * connections closed; the worker process(es) are forked and set up (connected, nothing claimed); 1.2 s later
 * (every idle backend has flushed its statistics by then) the clock starts and the workers are told to go. It
 * stops when the receiver has every request AND the database holds every delivery durably complete (ours:
 * DELIVERED; graphile-worker: its job row deleted; pg-boss: `completed`). Measured over that span:
 * - drain/s;
 * - CPU per delivery of the worker process(es) (their own process.cpuUsage()) and of the PostgreSQL backends
 *   serving the peer's database (every pid of pg_stat_activity for that database but the bench's own,
 *   /proc/<pid>/schedstat; background processes — WAL writer, checkpointer, autovacuum — are not counted);
 * - buffer accesses per delivery (pg_stat_database blks_hit + blks_read of the peer's database, read after the
 *   worker processes exited, so every backend has flushed its counters);
 * - WAL bytes per delivery, from pg_current_wal_insert_lsn(): CLUSTER-wide (pg_stat_statements is not loaded
 *   on this server), so other work on the machine adds to it; the WAL written in the second before the round
 *   (idle for the bench) is printed beside it as the background rate.
 * Then the same-round ratios (ours / peer) and, at the end, the medians of each figure and of the ratios.
 *
 * Settings, for all three: 64 attempts in flight per process, a pool of 10 connections per process.
 * - ours: the worker as it ships (createWebhookDeliveryJob, startWorker; 10 endpoints, per-endpoint cap 8);
 * - graphile-worker: concurrentJobs 64, localQueue.size 500, completeJobBatchDelay 0, failJobBatchDelay 0;
 * - pg-boss: localConcurrency 2 × batchSize 32, burstWhenBatchFull (a batch completes when its 32 are done).
 *
 * Usage: npm run bench:peers -- [deliveries=2000] [rounds=5] [workers=1] [peers=ours,graphile,pgboss]
 * BENCH_BASE=<dir> adds the peer "base" (name it in the peers list): our worker built from another checkout.
 * BENCH_AUTO_EXPLAIN=1 logs every statement's plan and buffers (server log); BENCH_CPU_PROFILE=<dir> writes
 * a CPU profile per worker process.
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server. With workers=2 each
 * peer runs two processes on its database; the receiver then also reports deliveries received more than once
 * and the spread of the endpoints' last arrivals (fairness).
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Sql } from "postgres";

const ENDPOINTS = 10;
const CONCURRENCY = 64;
const POOL = 10;
const QUEUE = "deliver";
const PEERS = ["ours", "graphile", "pgboss"] as const;
/**
 * "base": our worker as built from another checkout (BENCH_BASE=<dir>, e.g. `git archive <commit> | tar -x`
 * with node_modules linked), on the same schema — an earlier build interleaved with this one, round by round.
 */
type TPeer = (typeof PEERS)[number] | "base";
const isOurs = (p: TPeer) => p === "ours" || p === "base";
/** What a peer job carries: the delivery, its target and the same body and secret as ours. */
type TPeerJob = { id: string; url: string; body: string; secret: string };

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

// ---------------------------------------------------------------------------------------------------------
// The worker process: `peers.ts --worker <peer> <database url>`. Sets up, says "ready", starts on "go",
// answers "cpu" with its process.cpuUsage() since "go", stops and exits on "stop".
// ---------------------------------------------------------------------------------------------------------

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

async function workerProcess(peer: TPeer, url: string) {
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
        await profiler.post("Profiler.start");
      }
      cpu0 = process.cpuUsage();
      void start();
    } else if (m.type === "cpu") {
      const c = process.cpuUsage(cpu0);
      if (profiler) {
        const { profile } = await profiler.post("Profiler.stop");
        (await import("node:fs")).writeFileSync(path.join(profileDir!, `${peer}-${process.pid}.cpuprofile`), JSON.stringify(profile));
      }
      process.send?.({ type: "cpu", seconds: (c.user + c.system) / 1e6 });
    } else if (m.type === "stop") {
      void stop().finally(() => process.exit(0));
    }
  });
  process.send?.({ type: "ready" });
}

// ---------------------------------------------------------------------------------------------------------
// The bench.
// ---------------------------------------------------------------------------------------------------------

/**
 * CPU seconds of one process so far (null once it is gone): /proc/<pid>/schedstat (nanoseconds on a CPU), or
 * user + system clock ticks from /proc/<pid>/stat where schedstat is missing. Ticks are 10 ms: with ten
 * backends, ±0.1 s per round — ±50 µs per delivery at 2,000, as much as graphile-worker's whole figure.
 */
function procSeconds(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
  } catch {
    // fall through
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

type TReceiverStats = {
  received: number;
  distinct: number;
  duplicates: number;
  lastByPath: Record<string, number>;
  firstByPath: Record<string, number>;
};

async function startReceiver() {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "webhook-receiver.mjs"), [], {
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const replies = new Map<number, (m: unknown) => void>();
  let ref = 0;
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.on("message", (m: { type: string; port?: number; ref?: number }) => {
      if (m.type === "ready") resolve(m.port!);
      else if (m.ref !== undefined) {
        replies.get(m.ref)?.(m);
        replies.delete(m.ref);
      }
    });
  });
  const ask = <T>(msg: object) =>
    new Promise<T>((resolve) => {
      ref += 1;
      replies.set(ref, resolve as (m: unknown) => void);
      child.send({ ...msg, ref });
    });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    waitForReceived: (total: number) => ask<unknown>({ type: "wait", total }),
    /** Start counting delivery ids (and arrivals per path) afresh. */
    track: () => ask<unknown>({ type: "track" }),
    stats: () => ask<TReceiverStats>({ type: "stats" }),
    count: async () => (await ask<{ received: number }>({ type: "count" })).received,
    stop: () => child.disconnect(),
  };
}

function startWorkerProcess(peer: TPeer, url: string) {
  const base = process.env.BENCH_BASE;
  const child = fork(peer === "base" ? path.join(base!, "bench/peers.ts") : import.meta.filename, ["--worker", peer === "base" ? "ours" : peer, url], {
    // tsx reads tsconfig.json (the `@/` paths) from the working directory: the base build's own.
    cwd: peer === "base" ? base : undefined,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = (type: string) =>
    new Promise<{ type: string; seconds?: number }>((resolve, reject) => {
      const onMessage = (m: { type: string; seconds?: number }) => {
        if (m.type !== type) return;
        child.off("message", onMessage);
        resolve(m);
      };
      child.on("message", onMessage);
      child.once("exit", (code) => reject(new Error(`${peer} worker exited (${code}) before "${type}"`)));
    });
  const ready = next("ready");
  return {
    ready,
    go: () => child.send({ type: "go" }),
    cpu: async () => {
      const answer = next("cpu");
      child.send({ type: "cpu" });
      return (await answer).seconds!;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send({ type: "stop" });
      }),
  };
}

type TFigures = {
  peer: TPeer;
  rate: number;
  seconds: number;
  workerUs: number;
  pgUs: number;
  walBytes: number;
  backgroundWalPerS: number;
  buffers: number;
  /** Transactions (each statement outside BEGIN … COMMIT is one) per delivery. */
  xacts: number;
  duplicates: number;
  lastSpreadMs: number;
  lost: number;
  attemptRecords?: number;
  maxAttempts?: number;
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const args = process.argv.slice(2);
  const total = Number(args[0] ?? 2000);
  const rounds = Number(args[1] ?? 5);
  const workers = Number(args[2] ?? 1);
  const peers = (args[3]?.split(",") ?? [...PEERS]) as TPeer[];
  if (total % ENDPOINTS !== 0) throw new Error(`deliveries must be a multiple of ${ENDPOINTS}`);

  const base = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const { default: postgres } = await import("postgres");
  const dbUrl = (name: string) =>
    Object.assign(new URL(base.toString()), {
      pathname: `/${name}`,
    }).toString();
  const admin = postgres(dbUrl("postgres"), { max: 1, onnotice: () => {} });
  const names = Object.fromEntries(peers.map((p) => [p, `foliosign_peers_${p}_${process.pid}`])) as Record<TPeer, string>;
  const monitors = {} as Record<TPeer, Sql>;
  const receiver = await startReceiver();
  const load: number[][] = [os.loadavg()];

  try {
    for (const p of peers) {
      await admin.unsafe(`create database "${names[p]}"`);
      // BENCH_AUTO_EXPLAIN=1: every statement of every session on the scratch databases is logged to the
      // server log with its plan, timing and buffers (auto_explain; superuser only). Where the time goes.
      if (process.env.BENCH_AUTO_EXPLAIN === "1") {
        for (const [k, v] of Object.entries({
          session_preload_libraries: "auto_explain",
          "auto_explain.log_min_duration": "0",
          "auto_explain.log_analyze": "on",
          "auto_explain.log_buffers": "on",
          "auto_explain.log_timing": "off",
        }))
          await admin.unsafe(`alter database "${names[p]}" set ${k} = '${v}'`);
      }
      monitors[p] = postgres(dbUrl(names[p]), {
        max: 1,
        onnotice: () => {},
        connection: { application_name: "peers-bench" },
      });
    }

    // One-time setup: our schema, organisation and endpoints; the peers' schemas and queue. The body every peer
    // sends is the one our prefill stores (same bytes, ~600 of them).
    const { openPostgres, setDbHandle } = await import("@/server/db/client");
    const { migrate } = await import("@/server/db/migrate");
    const { insertOrganisation } = await import("@/server/domain/organisation/create-organisation");
    const { createEndpoint } = await import("@/server/domain/webhooks/endpoints/create-endpoint");
    const { recordEvent } = await import("@/server/domain/webhooks/events/record-event");
    const { workspaceActor } = await import("@/server/test/actors");
    const { generateWebhookSecret } = await import("@/server/domain/webhooks/endpoints/generate-webhook-secret");
    const secret = generateWebhookSecret();
    const targets = Array.from({ length: ENDPOINTS }, (_, i) => `${receiver.url}/thr/${i}`);
    const orgs: Partial<Record<TPeer, ReturnType<typeof workspaceActor>>> = {};
    let body = "";
    const setupOurs = async (peer: TPeer) => {
      const handle = await openPostgres(dbUrl(names[peer]), { max: POOL });
      setDbHandle(handle);
      try {
        await migrate(handle);
        const org = await insertOrganisation(handle.db, {
          name: "peers",
          email: "peers@bench.test",
          passwordHash: null,
          organisationName: "peers",
        });
        const actor = workspaceActor(org.organisationId, org.workspaceId);
        for (const url of targets)
          await createEndpoint(handle.db, actor, {
            url,
            events: ["PACKAGE_SENT"],
          });
        orgs[peer] = actor;
      } finally {
        await handle.close();
      }
    };
    const eventData = (i: number) => ({
      packageId: `pkg_${String(i).padStart(20, "0")}`,
      packageTitle: "Bench package — quarterly supplier agreement",
      signerCount: 2,
      sessionsSent: 2,
      metadata: { ref: "bench", note: "x".repeat(180) },
    });
    for (const p of peers.filter(isOurs)) await setupOurs(p);

    const prefillOurs = async (peer: TPeer, round: number) => {
      const m = monitors[peer];
      await m`truncate webhook_attempts, webhook_deliveries, webhook_events`;
      const handle = await openPostgres(dbUrl(names[peer]), { max: POOL });
      setDbHandle(handle);
      try {
        const org = orgs[peer]!;
        for (let from = 0; from < total / ENDPOINTS; from += 100) {
          await Promise.all(
            Array.from({ length: Math.min(100, total / ENDPOINTS - from) }, (_, k) =>
              handle.db.transaction((tx) =>
                recordEvent(tx, {
                  organisationId: org.organisation.id,
                  workspaceId: org.workspace.id,
                  event: "PACKAGE_SENT",
                  data: eventData(round * 1e6 + from + k),
                }),
              ),
            ),
          );
        }
      } finally {
        await handle.close();
      }
      if (!body) body = (await m<{ body: string }[]>`select body from webhook_events limit 1`)[0]!.body;
    };

    const prefill: Record<TPeer, (round: number) => Promise<void>> = {
      ours: (round) => prefillOurs("ours", round),
      base: (round) => prefillOurs("base", round),
      async graphile() {
        const { makeWorkerUtils } = await import("graphile-worker");
        const utils = await makeWorkerUtils({
          connectionString: dbUrl(names.graphile),
        });
        try {
          await utils.migrate();
          for (let from = 0; from < total; from += 1000) {
            await utils.addJobs(
              Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({
                identifier: QUEUE,
                payload: {
                  id: `gw_${from + k}`,
                  url: targets[(from + k) % ENDPOINTS]!,
                  body,
                  secret,
                } satisfies TPeerJob,
              })),
            );
          }
        } finally {
          await utils.release();
        }
      },
      async pgboss() {
        const { PgBoss } = await import("pg-boss");
        const boss = new PgBoss({
          connectionString: dbUrl(names.pgboss),
          max: 2,
          supervise: false,
          schedule: false,
        });
        boss.on("error", (err) => console.error("pg-boss:", err));
        await boss.start();
        try {
          if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE);
          await boss.deleteAllJobs(QUEUE);
          for (let from = 0; from < total; from += 1000) {
            await boss.insert(
              QUEUE,
              Array.from({ length: Math.min(1000, total - from) }, (_, k) => ({
                data: {
                  id: `pb_${from + k}`,
                  url: targets[(from + k) % ENDPOINTS]!,
                  body,
                  secret,
                } satisfies TPeerJob,
              })),
            );
          }
        } finally {
          await boss.stop({ graceful: false });
        }
      },
    };
    /** Every delivery durably complete? (How many are not, so the bench can wait.) */
    const remaining: Record<TPeer, () => Promise<number>> = {
      ours: async () => (await monitors.ours<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where status <> 'DELIVERED'`)[0]!.n,
      base: async () => (await monitors.base<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where status <> 'DELIVERED'`)[0]!.n,
      graphile: async () => (await monitors.graphile<{ n: number }[]>`select count(*)::int as n from graphile_worker._private_jobs`)[0]!.n,
      pgboss: async () =>
        (await monitors.pgboss<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = ${QUEUE} and state <> 'completed'`)[0]!.n,
    };

    const runOne = async (peer: TPeer, round: number): Promise<TFigures> => {
      const m = monitors[peer];
      await prefill[peer](round);
      await m.unsafe("vacuum analyze");
      if ((await remaining[peer]()) !== total) throw new Error(`${peer}: prefill left ${await remaining[peer]()} of ${total}`);
      const procs = Array.from({ length: workers }, () => startWorkerProcess(peer, dbUrl(names[peer])));
      await Promise.all(procs.map((p) => p.ready));
      await receiver.track();
      const receivedBefore = await receiver.count();
      const monitorPid = (await m<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
      const backends = async () =>
        (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${names[peer]} and pid <> ${monitorPid}`).map((r) => r.pid);
      const dbStats = async () => {
        const row = (
          await admin<{ b: string; x: string }[]>`select (blks_hit + blks_read)::text as b, (xact_commit + xact_rollback)::text as x
            from pg_stat_database where datname = ${names[peer]}`
        )[0]!;
        return { buffers: Number(row.b), xacts: Number(row.x) };
      };
      const lsn = async () => (await admin<{ l: string }[]>`select pg_current_wal_insert_lsn()::text as l`)[0]!.l;
      const walSince = async (from: string) =>
        Number((await admin<{ d: string }[]>`select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${from}::pg_lsn)::text as d`)[0]!.d);
      // Idle backends flush their statistics within a second; the WAL of that second is the background rate.
      const idleLsn = await lsn();
      await sleep(1200);
      const backgroundWalPerS = (await walSince(idleLsn)) / 1.2;
      await admin`select pg_stat_clear_snapshot()`;
      const stats0 = await dbStats();
      const pg0 = new Map((await backends()).map((pid) => [pid, procSeconds(pid) ?? 0]));
      const lsn0 = await lsn();
      const t0 = performance.now();
      for (const p of procs) p.go();
      await receiver.waitForReceived(receivedBefore + total);
      while ((await remaining[peer]()) > 0) await sleep(5);
      const seconds = (performance.now() - t0) / 1000;
      const walBytes = await walSince(lsn0);
      let pgSeconds = 0;
      for (const pid of await backends()) pgSeconds += (procSeconds(pid) ?? 0) - (pg0.get(pid) ?? 0);
      const workerSeconds = (await Promise.all(procs.map((p) => p.cpu()))).reduce((a, b) => a + b, 0);
      const rx = await receiver.stats();
      // Ours: every delivery DELIVERED (checked above) after exactly one attempt, and one attempt record each.
      const attemptsLogged = isOurs(peer)
        ? (
            await m<
              { n: number; max: number }[]
            >`select (select count(*)::int from webhook_attempts) as n, (select max(attempts)::int from webhook_deliveries) as max`
          )[0]!
        : undefined;
      await Promise.all(procs.map((p) => p.stop()));
      // Every worker backend has exited (and flushed its counters) before the buffer figure is read.
      for (let i = 0; i < 200 && (await backends()).length > 0; i++) await sleep(10);
      await admin`select pg_stat_clear_snapshot()`;
      const stats1 = await dbStats();
      const lasts = Object.values(rx.lastByPath);
      return {
        peer,
        rate: total / seconds,
        seconds,
        workerUs: (workerSeconds / total) * 1e6,
        pgUs: (pgSeconds / total) * 1e6,
        walBytes: walBytes / total,
        backgroundWalPerS,
        buffers: (stats1.buffers - stats0.buffers) / total,
        xacts: (stats1.xacts - stats0.xacts) / total,
        duplicates: rx.duplicates,
        lost: total - rx.distinct,
        attemptRecords: attemptsLogged?.n,
        maxAttempts: attemptsLogged?.max,
        lastSpreadMs: lasts.length ? Math.max(...lasts) - Math.min(...lasts) : 0,
      };
    };

    console.log(`Webhook delivery against its peers — ${new Date().toISOString()}`);
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, ${(await admin<{ v: string }[]>`select version() as v`)[0]!.v.split(" on ")[0]}; load average at the start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    console.log(`${total} deliveries × ${rounds} rounds, ${workers} worker process(es) per peer, ${CONCURRENCY} in flight and a pool of ${POOL} per process`);
    const all: TFigures[][] = [];
    for (let round = 0; round < rounds; round++) {
      const order = peers.map((_, i) => peers[(i + round) % peers.length]!);
      const figures: TFigures[] = [];
      for (const peer of order) {
        const f = await runOne(peer, round);
        figures.push(f);
        console.log(
          `round ${round + 1} ${peer.padEnd(8)} ${f.rate.toFixed(0).padStart(6)} /s (${f.seconds.toFixed(2)} s) | CPU/delivery worker ${f.workerUs.toFixed(0)} µs, PostgreSQL ${f.pgUs.toFixed(0)} µs | WAL ${f.walBytes.toFixed(0)} B (background ${(f.backgroundWalPerS / 1024).toFixed(0)} KiB/s) | buffers ${f.buffers.toFixed(1)} | transactions ${f.xacts.toFixed(2)}` +
            (workers > 1 || f.duplicates || f.lost
              ? ` | received twice ${f.duplicates}, never ${f.lost}, endpoints' last arrivals within ${f.lastSpreadMs.toFixed(0)} ms` +
                (f.attemptRecords === undefined ? "" : `, ${f.attemptRecords} attempt records, at most ${f.maxAttempts} attempt(s) per delivery`)
              : ""),
        );
      }
      load.push(os.loadavg());
      const of = (p: TPeer) => figures.find((f) => f.peer === p);
      const o = of("ours");
      if (o)
        console.log(
          `round ${round + 1} ratios: ${peers
            .filter((p) => p !== "ours")
            .map((p) => `ours/${p} ${(o.rate / of(p)!.rate).toFixed(2)}`)
            .join(", ")}; load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      all.push(figures);
    }

    console.log("");
    console.log(`medians over ${rounds} rounds (load averages seen: ${load.map((l) => l[0]!.toFixed(1)).join(", ")})`);
    for (const p of peers) {
      const fs = all.map((r) => r.find((f) => f.peer === p)!);
      const med = (k: keyof TFigures) => median(fs.map((f) => f[k] as number));
      console.log(
        `${p.padEnd(8)} drain ${med("rate").toFixed(0)} /s | CPU/delivery worker ${med("workerUs").toFixed(0)} µs, PostgreSQL ${med("pgUs").toFixed(0)} µs | WAL ${med("walBytes").toFixed(0)} B | buffers ${med("buffers").toFixed(1)} | transactions ${med("xacts").toFixed(2)}`,
      );
    }
    if (peers.includes("ours")) {
      for (const p of peers.filter((x) => x !== "ours")) {
        const ratios = all.map((r) => r.find((f) => f.peer === "ours")!.rate / r.find((f) => f.peer === p)!.rate);
        const pgRatios = all.map((r) => r.find((f) => f.peer === "ours")!.pgUs / r.find((f) => f.peer === p)!.pgUs);
        console.log(
          `ours / ${p}: drain ${median(ratios).toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(", ")}); PostgreSQL CPU per delivery ${median(pgRatios).toFixed(2)}`,
        );
      }
    }
  } finally {
    receiver.stop();
    for (const p of peers) {
      await monitors[p]?.end();
      await admin.unsafe(`drop database if exists "${names[p]}" with (force)`);
    }
    await admin.end();
  }
}

if (process.argv[2] === "--worker") {
  workerProcess(process.argv[3] as TPeer, process.argv[4]!).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
