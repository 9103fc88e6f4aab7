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
 *   /proc/<pid>/schedstat; background processes — WAL writer, checkpointer, autovacuum — are not counted), and
 *   of the receiver (its /proc/<pid>/schedstat: the same work for every peer);
 * - cores busy: those three CPU times together ÷ the drain's wall time; and, at the end, the drain every core
 *   busy would give at the medians' CPU per delivery (cores × 1 s ÷ (worker + PostgreSQL + receiver)): a
 *   peer's ceiling on this machine, whatever the overlap;
 * - buffer accesses per delivery (pg_stat_database blks_hit + blks_read of the peer's database, read after the
 *   worker processes exited, so every backend has flushed its counters);
 * - WAL bytes per delivery, from pg_current_wal_insert_lsn(): CLUSTER-wide (pg_stat_statements is not loaded
 *   on this server), so other work on the machine adds to it; the WAL written in the second before the round
 *   (idle for the bench) is printed beside it as the background rate.
 * Then the same-round ratios (ours / peer) and, at the end, the medians of each figure and of the ratios.
 *
 * Settings, for all three: 64 attempts in flight per process, a pool of 10 connections per process.
 * - ours: the worker as it ships (createWebhookDeliveryJob, startWorker; 10 endpoints, per-endpoint cap 8; with one
 *   worker process it is the only live worker and claims ahead, up to 24 leases an endpoint);
 * - graphile-worker: concurrentJobs 64, localQueue.size 500, completeJobBatchDelay 0, failJobBatchDelay 0;
 * - pg-boss: localConcurrency 2 × batchSize 32, burstWhenBatchFull (a batch completes when its 32 are done).
 *
 * Usage: npm run bench:peers -- [deliveries=2000] [rounds=5] [workers=1] [peers=ours,graphile,pgboss]
 * BENCH_BASE=<dir> adds the peer "base" (name it in the peers list): our worker built from another checkout.
 * BENCH_AUTO_EXPLAIN=1 logs every statement's plan and buffers (server log); BENCH_CPU_PROFILE=<dir> writes
 * a CPU profile per worker process.
 * BENCH_SLOW_MS=<ms>: one endpoint's receiver (every tenth delivery) answers only after that long; each round
 * then also reports when the nine quick endpoints had every delivery of theirs (and that drain's same-round
 * ratios) and how many requests the slow endpoint had open at once — what a per-endpoint cap is for.
 * BENCH_PERF=<dir> runs each drain under `perf record` and prints the PostgreSQL backends' CPU per delivery by
 * group of functions (peers/perf.ts). BENCH_ENDPOINTS=<n> spreads the deliveries over n endpoints (default 10).
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server. With workers=2 each
 * peer runs two processes on its database; the receiver then also reports deliveries received more than once
 * and the spread of the endpoints' last arrivals (fairness).
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { ENDPOINTS, PEERS, CONCURRENCY, POOL, SLOW_MS, SLOW_PATH, type TPeer } from "./peers/config";
import { startReceiver } from "./peers/children";
import { openPeerDatabases } from "./peers/databases";
import { runTurn, type TFigures } from "./peers/round";
import { statementLines } from "./peers/statements";
import { FREQUENCY, GROUP_NAMES } from "./peers/perf";

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.LOG_LEVEL ??= "warn";
// Set before any worker process is forked: they inherit it, so ours can decrypt the endpoints' secrets.
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  const args = process.argv.slice(2);
  const total = Number(args[0] ?? 2000);
  const rounds = Number(args[1] ?? 5);
  const workers = Number(args[2] ?? 1);
  const peers = (args[3]?.split(",") ?? [...PEERS]) as TPeer[];
  if (total % ENDPOINTS !== 0) throw new Error(`deliveries must be a multiple of ${ENDPOINTS}`);

  // The receiver (forked with this environment) answers the slow endpoint's path late (BENCH_SLOW_MS).
  process.env.BENCH_SLOW_PATH = SLOW_PATH;
  const receiver = await startReceiver();
  const load: number[][] = [os.loadavg()];
  const dbs = await openPeerDatabases({ peers, total, receiverUrl: receiver.url }).catch((err: unknown) => {
    receiver.stop();
    throw err;
  });
  const { admin } = dbs;
  try {
    console.log(`Webhook delivery against its peers — ${new Date().toISOString()}`);
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, ${(await admin<{ v: string }[]>`select version() as v`)[0]!.v.split(" on ")[0]}; load average at the start ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    console.log(`${total} deliveries × ${rounds} rounds, ${workers} worker process(es) per peer, ${CONCURRENCY} in flight and a pool of ${POOL} per process`);
    if (SLOW_MS > 0)
      console.log(
        `one slow endpoint of ${ENDPOINTS}: the receiver answers ${SLOW_PATH} (every ${ENDPOINTS}th delivery) after ${SLOW_MS} ms, the others at once; "quick" = the other ${ENDPOINTS - 1} endpoints' deliveries, all received`,
      );
    const all: TFigures[][] = [];
    for (let round = 0; round < rounds; round++) {
      const order = peers.map((_, i) => peers[(i + round) % peers.length]!);
      const figures: TFigures[] = [];
      for (const peer of order) {
        const f = await runTurn(dbs, receiver, { peer, round, total, workers });
        figures.push(f);
        console.log(
          `round ${round + 1} ${peer.padEnd(8)} ${f.rate.toFixed(0).padStart(6)} /s (${f.seconds.toFixed(2)} s) | CPU/delivery worker ${f.workerUs.toFixed(0)} µs, PostgreSQL ${f.pgUs.toFixed(0)} µs, receiver ${f.receiverUs.toFixed(0)} µs | cores busy ${f.coresBusy.toFixed(2)} | WAL ${f.walBytes.toFixed(0)} B (background ${(f.backgroundWalPerS / 1024).toFixed(0)} KiB/s) | buffers ${f.buffers.toFixed(1)} | transactions ${f.xacts.toFixed(2)}` +
            (workers > 1 || f.duplicates || f.lost
              ? ` | received twice ${f.duplicates}, never ${f.lost}, endpoints' last arrivals within ${f.lastSpreadMs.toFixed(0)} ms` +
                (f.attemptRecords === undefined ? "" : `, ${f.attemptRecords} attempt records, at most ${f.maxAttempts} attempt(s) per delivery`)
              : "") +
            (f.quick
              ? ` | quick endpoints all received in ${f.quick.seconds.toFixed(2)} s (${f.quick.rate.toFixed(0)} /s) | slow endpoint at most ${f.quick.slowMaxInFlight} requests open at once (a quick one ${f.quick.quickMaxInFlight})`
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
            .map(
              (p) => `ours/${p} ${(o.rate / of(p)!.rate).toFixed(2)}` + (o.quick ? ` (quick endpoints ${(o.quick.rate / of(p)!.quick!.rate).toFixed(2)})` : ""),
            )
            .join(", ")}; load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      all.push(figures);
    }

    console.log("");
    console.log(`medians over ${rounds} rounds (load averages seen: ${load.map((l) => l[0]!.toFixed(1)).join(", ")})`);
    /** A peer's figures, round by round. */
    const roundsOf = (p: TPeer) => all.map((r) => r.find((f) => f.peer === p)!);
    for (const p of peers) {
      const fs = roundsOf(p);
      const med = (k: keyof TFigures) => median(fs.map((f) => f[k] as number));
      const quick = fs[0]!.quick
        ? ` | quick endpoints all received in ${median(fs.map((f) => f.quick!.seconds)).toFixed(2)} s (${median(fs.map((f) => f.quick!.rate)).toFixed(0)} /s), slow endpoint at most ${Math.max(...fs.map((f) => f.quick!.slowMaxInFlight))} open at once`
        : "";
      console.log(
        `${p.padEnd(8)} drain ${med("rate").toFixed(0)} /s | CPU/delivery worker ${med("workerUs").toFixed(0)} µs, PostgreSQL ${med("pgUs").toFixed(0)} µs, receiver ${med("receiverUs").toFixed(0)} µs | cores busy ${med("coresBusy").toFixed(2)} | all cores busy at most ${((os.cpus().length * 1e6) / (med("workerUs") + med("pgUs") + med("receiverUs"))).toFixed(0)} /s | WAL ${med("walBytes").toFixed(0)} B | buffers ${med("buffers").toFixed(1)} | transactions ${med("xacts").toFixed(2)}${quick}`,
      );
    }
    if (all[0]![0]!.perf) {
      console.log("");
      console.log(
        `PostgreSQL backends' CPU by function (perf, ${FREQUENCY} samples/s per CPU; µs per delivery, median of the rounds; perf's own load slows every peer's drain)`,
      );
      console.log(`${"".padEnd(30)}${peers.map((p) => p.padStart(10)).join("")}`);
      // Samples of a group (or of all groups) in a peer's drain, as µs of PostgreSQL CPU per delivery; the median of the rounds.
      const usPerDelivery = (f: TFigures, g: string) =>
        ((g === "all" ? Object.values(f.perf!).reduce((a, b) => a + b, 0) : (f.perf![g] ?? 0)) / FREQUENCY / total) * 1e6;
      const cell = (p: TPeer, g: string) => median(roundsOf(p).map((f) => usPerDelivery(f, g)));
      for (const g of [...GROUP_NAMES, "all"]) console.log(`${g.padEnd(30)}${peers.map((p) => cell(p, g).toFixed(1).padStart(10)).join("")}`);
    }
    if (dbs.statements) {
      console.log("");
      console.log(
        `pg_stat_statements, all rounds' drains together: share of execution time | per delivery: execution time, calls, rows per call, buffers, WAL`,
      );
      for (const p of peers) {
        console.log(p);
        for (const line of statementLines(
          roundsOf(p).map((f) => f.statements ?? []),
          total * rounds,
        ))
          console.log(line);
      }
      console.log("");
    }
    if (peers.includes("ours")) {
      const ours = roundsOf("ours");
      for (const p of peers.filter((x) => x !== "ours")) {
        const theirs = roundsOf(p);
        /** Ours ÷ this peer's, round by round, of one figure. */
        const sameRound = (figure: (f: TFigures) => number) => ours.map((o, i) => figure(o) / figure(theirs[i]!));
        const ratios = sameRound((f) => f.rate);
        const pgRatios = sameRound((f) => f.pgUs);
        const quickRatios = SLOW_MS > 0 ? sameRound((f) => f.quick!.rate) : [];
        console.log(
          `ours / ${p}: drain ${median(ratios).toFixed(2)} (rounds ${ratios.map((x) => x.toFixed(2)).join(", ")}); PostgreSQL CPU per delivery ${median(pgRatios).toFixed(2)}` +
            (SLOW_MS > 0 ? `; quick endpoints' drain ${median(quickRatios).toFixed(2)} (rounds ${quickRatios.map((x) => x.toFixed(2)).join(", ")})` : ""),
        );
      }
    }
  } finally {
    receiver.stop();
    await dbs.close();
  }
}

if (process.argv[2] === "--worker") {
  import("./peers/worker-process")
    .then(({ workerProcess }) => workerProcess(process.argv[3] as TPeer, process.argv[4]!))
    .catch((err: unknown) => {
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
