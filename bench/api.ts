/**
 * bench:api — everyday writes through the public API (issue 26): create a package from a template, send a
 * draft, and create-and-send in one call, beside the bare handler, on PostgreSQL. `npm run bench:api` with
 * DATABASE_URL pointing at a PostgreSQL server; it creates a scratch database `foliosign_bench_api_<pid>`
 * beside it, migrates it, and drops it at the end.
 *
 * The server is in this process: the real route handlers (`app/api/v1/…/route.ts`, the API door with its key
 * lookup, rate limit, parsing and response schema, then the domain and postgres.js with a pool of 10, as the
 * server opens it) called with `new Request()`, as Next calls them. This process is also the load generator:
 * `c` requests in flight, each timed from the call to the end of its body. Every request carries its own client
 * address, so the per-address rate limit runs on each one without answering 429. The bare handler is
 * GET /api/health/live (no key, no database): the ceiling of this process.
 *
 * Targets, measured in rounds that interleave them (bare, create, send, create-and-send at c=1, then the same at
 * c=16) because this shared machine's load moves every figure within minutes; the medians of the rounds are
 * printed, with the ratios (c=16 ÷ c=1 per target, and target ÷ bare) computed in the same run:
 *   create           POST /api/v1/packages/from-template (2 roles: 2 recipients, 3 fields, a merge field);
 *   send             POST /api/v1/packages/{id}/send on a draft created (untimed) before the round;
 *   create-and-send  POST /api/v1/packages/from-template with status "sent".
 * During every c=16 send measurement a separate connection samples pg_stat_activity every 10 ms: the number of
 * this database's connections waiting on a lock (wait_event_type = 'Lock'); the mean over the samples is printed.
 *
 * Statements per request, counted by the database: pg_stat_statements needs shared_preload_libraries (not set on
 * this machine's server, and changing it needs a restart), so the bench sets `log_statement = 'all'` on the
 * scratch database only (ALTER DATABASE; new connections only), opens a fresh pool, runs COUNT requests of each
 * target at c=1 between marker statements, and counts the server log's `statement:` / `execute …:` lines of this
 * database (BEGIN and COMMIT included, printed apart) from BENCH_PG_LOG (default
 * /var/log/postgresql/postgresql-15-main.log). Without a readable log the counts are skipped.
 *
 * Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:api -- [requests at c=1=40] [requests at c=16=160] [rounds=3]
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import os from "node:os";

process.env.LOG_LEVEL ??= "warn";
// What the start script would generate (server/secrets.ts); signing links are encrypted with the key.
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("hex");
process.env.PUBLIC_URL ??= "http://127.0.0.1:3000";

const [N1 = 40, N16 = 160, ROUNDS = 3] = process.argv.slice(2).map(Number);
const COUNT = 10;
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";

type TResult = { rps: number; p50: number; p99: number; lockWaits?: number };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `total` calls of `one` with `concurrency` in flight; `one(i)` gets the call's number. */
async function load(total: number, concurrency: number, one: (i: number) => Promise<void>): Promise<TResult> {
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const s = performance.now();
        await one(i);
        times.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { rps: total / seconds, p50: pct(times, 50), p99: pct(times, 99) };
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("bench:api runs on PostgreSQL: set DATABASE_URL");
  const { default: postgres } = await import("postgres");
  const { openPostgres, setDbHandle } = await import("@/server/db/client");
  const { migrate } = await import("@/server/db/migrate");
  const { createTestKey, createTestOrg } = await import("@/server/test/factories");
  const { createActiveTemplate } = await import("@/server/domain/packages/test-support/fixtures");
  const { callRoute } = await import("@/server/test/http");
  const { POST: fromTemplateRoute } = await import("@/app/api/v1/packages/from-template/route");
  const { POST: sendRoute } = await import("@/app/api/v1/packages/[packageId]/send/route");
  const { GET: liveRoute } = await import("@/app/api/health/live/route");

  const name = `foliosign_bench_api_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${name}`;
  let handle = await openPostgres(dbUrl.toString(), { max: 10 });
  const sampler = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  try {
    setDbHandle(handle);
    await migrate(handle);
    const org = await createTestOrg(handle.db);
    const key = (await createTestKey(handle.db, org)).value;
    const { templateId } = await createActiveTemplate(handle.db, org);
    const recipients = [
      { email: "tenant@example.com", name: "Tina", roleIndex: 0 },
      { email: "landlord@example.com", roleIndex: 1 },
    ];
    let address = 0;
    const nextAddress = () => {
      address++;
      return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    };
    const expect = async (res: Response, status: number) => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`answered ${res.status}, expected ${status}: ${text}`);
      return text;
    };
    const createBody = (i: number, extra: Record<string, unknown> = {}) => ({ templateId, title: `Lease ${i}`, recipients, ...extra });
    const createDraft = async (i: number) =>
      (JSON.parse(await expect(await callRoute(fromTemplateRoute, { key, body: createBody(i), address: nextAddress() }), 201)) as { data: { id: string } }).data
        .id;

    const targets: Record<string, { prepare?: (n: number) => Promise<void>; one: (i: number) => Promise<void> }> = {};
    targets.bare = { one: async () => void (await liveRoute().text()) };
    targets.create = { one: async (i) => void (await createDraft(i)) };
    let drafts: string[] = [];
    targets.send = {
      prepare: async (n) => {
        drafts = [];
        for (let i = 0; i < n; i++) drafts.push(await createDraft(i));
      },
      one: async (i) => void (await expect(await callRoute(sendRoute, { key, params: { packageId: drafts[i]! }, body: {}, address: nextAddress() }), 200)),
    };
    targets["create-and-send"] = {
      one: async (i) => void (await expect(await callRoute(fromTemplateRoute, { key, body: createBody(i, { status: "sent" }), address: nextAddress() }), 201)),
    };

    // Also which statements wait (the waiting query's first words), as a mean per sample, printed with the round.
    let waitingStatements = "";
    const lockWaitSampler = () => {
      const samples: number[] = [];
      const byStatement = new Map<string, number>();
      let stopped = false;
      const done = (async () => {
        while (!stopped) {
          const rows = await sampler<{ q: string; n: number }[]>`select left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 48) as q, count(*)::int as n
            from pg_stat_activity where datname = ${name} and wait_event_type = 'Lock' group by 1`;
          samples.push(rows.reduce((a, r) => a + r.n, 0));
          for (const r of rows) byStatement.set(r.q, (byStatement.get(r.q) ?? 0) + r.n);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      return async () => {
        stopped = true;
        await done;
        const count = Math.max(1, samples.length);
        waitingStatements = [...byStatement]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([q, n]) => `${(n / count).toFixed(2)} on "${q}"`)
          .join(", ");
        return samples.reduce((a, b) => a + b, 0) / count;
      };
    };

    console.log(
      `bench:api — PostgreSQL, in process, pool 10; ${N1} requests at c=1 and ${N16} at c=16 per target, ${ROUNDS} rounds; node ${process.version}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    // Warm-up: every target once, so module loading and the first plans are not measured.
    for (const [n, target] of Object.entries(targets)) {
      await target.prepare?.(4);
      await load(4, 1, target.one);
      void n;
    }
    const results: Record<string, TResult[]> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      for (const concurrency of [1, 16]) {
        for (const [target, t] of Object.entries(targets)) {
          const total = concurrency === 1 ? N1 : N16;
          await t.prepare?.(total);
          const stop = target === "send" && concurrency === 16 ? lockWaitSampler() : undefined;
          const r = await load(total, concurrency, t.one);
          if (stop) r.lockWaits = await stop();
          (results[`${target} c=${concurrency}`] ??= []).push(r);
          console.log(
            `round ${round} ${`${target} c=${concurrency}`.padEnd(22)} ${r.rps.toFixed(1).padStart(8)} req/s  p50 ${r.p50.toFixed(1).padStart(7)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms` +
              (r.lockWaits !== undefined ? `  lock waits ${r.lockWaits.toFixed(2)}${waitingStatements ? ` (${waitingStatements})` : ""}` : ""),
          );
        }
      }
    }
    console.log(
      `\nmedians of ${ROUNDS} rounds (load average now ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}):`,
    );
    const med = (k: string, f: (r: TResult) => number) => median(results[k]!.map(f));
    for (const target of Object.keys(targets)) {
      const c1 = med(`${target} c=1`, (r) => r.rps);
      const c16 = med(`${target} c=16`, (r) => r.rps);
      const bare16 = med("bare c=16", (r) => r.rps);
      console.log(
        `${target.padEnd(16)} c=1 ${c1.toFixed(1).padStart(8)} req/s (p50 ${med(`${target} c=1`, (r) => r.p50).toFixed(1)} / p99 ${med(`${target} c=1`, (r) => r.p99).toFixed(1)} ms)` +
          `  c=16 ${c16.toFixed(1).padStart(8)} req/s (p50 ${med(`${target} c=16`, (r) => r.p50).toFixed(1)} / p99 ${med(`${target} c=16`, (r) => r.p99).toFixed(1)} ms)` +
          `  c16÷c1 ${(c16 / c1).toFixed(2)}  c16÷bare ${(c16 / bare16).toFixed(4)}` +
          (target === "send" ? `  lock waits at c=16 (mean) ${med("send c=16", (r) => r.lockWaits ?? 0).toFixed(2)}` : ""),
      );
    }

    // Statements per request, from the server log.
    let logStart: number;
    try {
      logStart = statSync(PG_LOG).size;
    } catch {
      console.log(`\nstatements per request: skipped (${PG_LOG} not readable; set BENCH_PG_LOG)`);
      return;
    }
    await admin.unsafe(`alter database "${name}" set log_statement = 'all'`);
    await handle.close();
    handle = await openPostgres(dbUrl.toString(), { max: 10 });
    setDbHandle(handle);
    const { sql } = await import("drizzle-orm");
    const marks: string[] = [];
    for (const [target, t] of Object.entries(targets)) {
      if (target === "bare") continue;
      await t.prepare?.(COUNT);
      await handle.db.execute(sql.raw(`select 'bench-api-mark ${target} start'`));
      await load(COUNT, 1, t.one);
      await handle.db.execute(sql.raw(`select 'bench-api-mark ${target} end'`));
      marks.push(target);
    }
    await admin.unsafe(`alter database "${name}" reset log_statement`);
    await new Promise((r) => setTimeout(r, 500));
    const size = statSync(PG_LOG).size;
    const fd = openSync(PG_LOG, "r");
    const buf = Buffer.alloc(size - logStart);
    readSync(fd, buf, 0, buf.length, logStart);
    closeSync(fd);
    const lines = buf
      .toString("utf8")
      .split("\n")
      .filter((l) => l.includes(`@${name} LOG:  `) && /LOG: {2}(statement|execute [^:]*):/.test(l));
    console.log(
      `\nstatements per request (log_statement = 'all', ${COUNT} requests each at c=1; in the send's window, the drafts were created before the start mark):`,
    );
    for (const target of marks) {
      const from = lines.findIndex((l) => l.includes(`bench-api-mark ${target} start`));
      const to = lines.findIndex((l) => l.includes(`bench-api-mark ${target} end`));
      const inside = lines.slice(from + 1, to);
      const tx = inside.filter((l) => /: (begin|commit)\s*$/i.test(l)).length;
      console.log(
        `${target.padEnd(16)} ${(inside.length / COUNT).toFixed(1).padStart(5)} statements per request (of which BEGIN/COMMIT ${(tx / COUNT).toFixed(1)})`,
      );
    }
  } finally {
    setDbHandle(undefined);
    await handle.close();
    await sampler.end();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
