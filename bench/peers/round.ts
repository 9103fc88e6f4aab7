/**
 * One peer's turn in a round of `npm run bench:peers`: the queue is reset and pre-filled with every delivery,
 * `VACUUM ANALYZE`d (what autovacuum keeps on a running system); the worker process(es) are forked and set up
 * (connected, nothing claimed); 1.2 s later (every idle backend has flushed its statistics by then) the clock
 * starts and the workers are told to go. It stops when the receiver has every request AND the database holds
 * every delivery durably complete. Measured over that span, per delivery: CPU of the worker processes (their
 * own process.cpuUsage()) and of the PostgreSQL backends serving the peer's database (/proc/<pid>/schedstat;
 * background processes are not counted); buffer accesses and transactions (pg_stat_database, read after the
 * worker processes exited); WAL bytes (cluster-wide; the idle second before the round gives the background).
 */
import { ENDPOINTS, isOurs, SLOW_MS, SLOW_PATH, type TPeer } from "./config";
import { procSeconds, startWorkerProcess, type startReceiver, type TReceiverStats } from "./children";
import type { TPeerDatabases } from "./databases";
import { startPerf, type TPerfGroups } from "./perf";
import { readStatements, resetStatements, type TStatement } from "./statements";

export type TFigures = {
  peer: TPeer;
  rate: number;
  seconds: number;
  workerUs: number;
  /** CPU of the receiver process per delivery (the same job's other end, for every peer). */
  receiverUs: number;
  /** Cores kept busy on average over the drain: (worker + PostgreSQL + receiver CPU) ÷ wall time. */
  coresBusy: number;
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
  /**
   * With BENCH_SLOW_MS: when the nine quick endpoints had received every delivery of theirs (seconds after "go",
   * the receiver's clock), their deliveries per second, and the most requests the slow endpoint had open at once.
   */
  quick?: { seconds: number; rate: number; slowMaxInFlight: number; quickMaxInFlight: number };
  /** With BENCH_PERF: the PostgreSQL backends' perf samples over the drain, by group of functions (perf.ts). */
  perf?: TPerfGroups;
  /** pg_stat_statements' entries of the drain, when the server preloads it. */
  statements?: TStatement[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runTurn(
  dbs: TPeerDatabases,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  opts: { peer: TPeer; round: number; total: number; workers: number },
): Promise<TFigures> {
  const { peer, total } = opts;
  const { admin, names } = dbs;
  const m = dbs.monitors[peer];
  await dbs.prefill(peer, opts.round);
  await m.unsafe("vacuum analyze");
  if ((await dbs.remaining(peer)) !== total) throw new Error(`${peer}: prefill left ${await dbs.remaining(peer)} of ${total}`);
  const procs = Array.from({ length: opts.workers }, () => startWorkerProcess(peer, dbs.dbUrl(names[peer])));
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
  if (dbs.statements) await resetStatements(m);
  const pg0 = new Map((await backends()).map((pid) => [pid, procSeconds(pid) ?? 0]));
  const receiver0 = procSeconds(receiver.pid) ?? 0;
  const lsn0 = await lsn();
  const perfDir = process.env.BENCH_PERF;
  const perf = perfDir ? await startPerf(perfDir, `${peer}-${opts.round + 1}`) : undefined;
  const t0 = performance.now();
  receiver.mark();
  for (const p of procs) p.go();
  await receiver.waitForReceived(receivedBefore + total);
  while ((await dbs.remaining(peer)) > 0) await sleep(5);
  const seconds = (performance.now() - t0) / 1000;
  const perfGroups = await perf?.stop();
  const receiverSeconds = (procSeconds(receiver.pid) ?? 0) - receiver0;
  const statements = dbs.statements ? await readStatements(m) : undefined;
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
  const quick = SLOW_MS > 0 ? quickFigures(rx, total) : undefined;
  return {
    peer,
    rate: total / seconds,
    seconds,
    workerUs: (workerSeconds / total) * 1e6,
    receiverUs: (receiverSeconds / total) * 1e6,
    coresBusy: (workerSeconds + pgSeconds + receiverSeconds) / seconds,
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
    statements,
    quick,
    perf: perfGroups,
  };
}

/** BENCH_SLOW_MS: the quick endpoints' drain (to their last arrival after the mark) and the requests open at once. */
function quickFigures(rx: TReceiverStats, total: number): NonNullable<TFigures["quick"]> {
  if (rx.markAt === null) throw new Error("the receiver was not marked at the start of the drain");
  const quickPaths = Object.keys(rx.lastByPath).filter((p) => p !== SLOW_PATH);
  const seconds = (Math.max(...quickPaths.map((p) => rx.lastByPath[p]!)) - rx.markAt) / 1000;
  return {
    seconds,
    rate: (total * (ENDPOINTS - 1)) / ENDPOINTS / seconds,
    slowMaxInFlight: rx.maxInFlightByPath[SLOW_PATH] ?? 0,
    quickMaxInFlight: Math.max(...quickPaths.map((p) => rx.maxInFlightByPath[p] ?? 0)),
  };
}
