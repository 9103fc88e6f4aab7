/**
 * Packages list benchmark (not a test). `npm run bench:packages` with DATABASE_URL pointing at a PostgreSQL
 * server; it creates a scratch database beside it, migrates it, and drops it at the end.
 *
 * The server is the real app as it ships: `server/start.ts` (the built Next app behind our Node server; it
 * builds first when the build is missing or stale) in a child process on 127.0.0.1, on the scratch database,
 * with RUN_WORKER=false and its log lines going nowhere. This process is the load generator: undici keep-alive
 * connections, `concurrency` requests in flight, each request timed from send to the last byte of its body.
 * Every request carries a distinct X-Forwarded-For and the server trusts 127.0.0.1 as a proxy
 * (TRUSTED_PROXIES), so the per-address rate limit (120/min) still runs on every request but never answers 429.
 *
 * Two workspaces of one organisation hold 10 k and 1 M packages (seeded with SQL, `generate_series`, through
 * the triggers that keep the counters; then the fold job, then VACUUM ANALYZE as autovacuum would have done),
 * each listed with an admin key of its own. The sizes are measured in the same run and INTERLEAVED — rounds of
 * (bare, then each target at 10 k and at 1 M) — because this machine's load moves every figure by 2× within
 * minutes; the medians of the rounds are compared. Each measurement loads one target for `seconds` (after
 * one warm-up pass of 1 s per target):
 *   bare     GET /api/health/live — a bare Next route handler (no key, no database): the ceiling;
 *   list     GET /api/v1/packages — default page (25, newest updatedAt first), an admin key;
 *   status   GET /api/v1/packages?status=IN_PROGRESS;
 *   search   GET /api/v1/packages?search=harbour — 20 matching titles at both sizes;
 *   broad    GET /api/v1/packages?search=rental — 10 % of the workspace: its exact count visits every match, so
 *            it is taken once and then remembered while no package of the workspace changes (search-count-
 *            cache.ts); nothing changes during a measurement, so this measures the remembered count, and the
 *            EXPLAIN below shows what a count costs on the first request after a change.
 * p50/p99 of the request times, requests/s (requests completed / seconds) and the server's CPU per request (its
 * process tree's user+system time from /proc over the measurement, divided by the requests: what the server
 * itself spends, whatever else the machine runs) are printed, with PostgreSQL's (its backends serving the
 * scratch database) and this load generator's CPU per request beside it: the three share the machine's cores; then the EXPLAIN
 * (ANALYZE, BUFFERS) of the statements listPackages issues (captured by the driver, run in this
 * process against the same database) and the time of the `count(*)` the counters replace. Finally a bulk send
 * of 100 items (`POST /api/v1/packages/bulk-send`, two recipients each), twice in each workspace, alternately.
 *
 * Before and after in one run: BENCH_BEFORE=<dir> names another checkout of the project (e.g. a `git worktree` of
 * the commit before a change, with its own node_modules and `next build`). Its `server/start.ts` then runs as a
 * second server on the same scratch database (its own migrations must be a prefix of this checkout's), and every
 * round measures bare and each target on both servers, one after the other (only one is loaded at a time): the
 * lines and the summary name them `before` and `after` (this checkout). Each server's req/s is compared with the
 * bare handler measured on that same server. The EXPLAIN and the bulk sends are this checkout's.
 *
 * Usage: [BENCH_BEFORE=<dir>] npm run bench:packages -- [seconds=5] [concurrency=32] [large=1000000] [rounds=3]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { cpuSecondsOf, treeCpuSeconds } from "./proc-cpu";

process.env.LOG_LEVEL ??= "warn";

const [SECONDS = 5, CONCURRENCY = 32, LARGE = 1_000_000, ROUNDS = 3] = process.argv.slice(2).map(Number);
const SMALL = 10_000;
const SEARCH_HITS = 20;

type TTarget = { name: string; path: string; auth: boolean };
/** Ten kinds of contract, one in ten titles each, spread evenly over the updatedAt order. */
const KINDS = ["employment", "supplier", "rental", "loan", "consulting", "purchase", "licence", "partnership", "insurance", "maintenance"];
const ALL_TARGETS: TTarget[] = [
  { name: "bare", path: "/api/health/live", auth: false },
  { name: "list", path: "/api/v1/packages", auth: true },
  { name: "status", path: "/api/v1/packages?status=IN_PROGRESS", auth: true },
  { name: "search", path: "/api/v1/packages?search=harbour", auth: true },
  { name: "broad", path: "/api/v1/packages?search=rental", auth: true },
];
/** BENCH_TARGETS=list,search measures only those (bare always); BENCH_BULK=false skips the bulk sends. */
const only = process.env.BENCH_TARGETS?.split(",").map((t) => t.trim());
const TARGETS = only ? ALL_TARGETS.filter((t) => t.name === "bare" || only.includes(t.name)) : ALL_TARGETS;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    console.error("bench:packages runs on PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).");
    process.exit(1);
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { Pool } = await import("undici");
  const { GENERIC_PLAN_SETTINGS, openPostgres, setDbHandle } = await import("@/server/db/client");
  const { installGenericPlanClient } = await import("@/server/db/driver");
  const schema = await import("@/server/db/schema");
  const { migrate } = await import("@/server/db/migrate");
  const { createTestKey, createTestOrg, createTestWorkspace } = await import("@/server/test/factories");
  const { ownerActor } = await import("@/server/test/actors");
  const { createActiveTemplate } = await import("@/server/domain/packages/test-support/fixtures");
  const { listPackages } = await import("@/server/domain/packages/list-packages");
  const { packageJobs } = await import("@/server/domain/packages/jobs");
  const { runDeclaredJob } = await import("@/server/jobs/run-declared-job");
  type TDb = import("@/server/db/client").Db;

  const name = `foliosign_bench_packages_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${name}`;
  const handle = await openPostgres(dbUrl.toString());
  setDbHandle(handle);
  const raw = postgres(dbUrl.toString(), { max: 1, onnotice: () => {} });
  // What listPackages sends, captured by the driver on both pools (its hot reads bypass drizzle's logger).
  const captured: { query: string; params: unknown[]; generic: boolean }[] = [];
  const traced = postgres(dbUrl.toString(), {
    max: 1,
    onnotice: () => {},
    debug: (_conn, query, params) => void captured.push({ query, params, generic: false }),
  });
  const tracedGeneric = postgres(dbUrl.toString(), {
    max: 1,
    onnotice: () => {},
    connection: GENERIC_PLAN_SETTINGS,
    debug: (_conn, query, params) => void captured.push({ query, params, generic: true }),
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "foliosign-bench-packages-"));
  type TServer = { name: string; proc: ChildProcess; pool: InstanceType<typeof Pool> };
  const servers: TServer[] = [];
  try {
    await migrate(handle);
    const db = handle.db;
    const org = await createTestOrg(db, "Bench");
    const smallWs = await createTestWorkspace(db, org.organisationId, "small");
    const templates = new Map<number, string>([
      [SMALL, (await createActiveTemplate(db, { organisationId: org.organisationId, workspaceId: smallWs })).templateId],
      [LARGE, (await createActiveTemplate(db, org)).templateId],
    ]);
    const keys = new Map<number, string>([
      [SMALL, (await createTestKey(db, org, { workspaceId: smallWs })).value],
      [LARGE, (await createTestKey(db, org)).value],
    ]);
    const workspaceOf = new Map<number, string>([
      [SMALL, smallWs],
      [LARGE, org.workspaceId],
    ]);

    // Seeding `size` packages into its workspace, in statements of 100 k: spread over statuses (VIEWED among
    // IN_PROGRESS), 1 % soft-deleted, updatedAt one second apart, titles "Contract <n> <kind>"; the first 20
    // are the "Harbour lease" titles the selective search finds.
    const seed = async (size: number) => {
      const ws = workspaceOf.get(size)!;
      for (let lo = 1; lo <= size; lo += 100_000) {
        const hi = Math.min(size, lo + 99_999);
        await raw.unsafe(
          `insert into packages (id, organisation_id, workspace_id, owner_user_id, title, status, first_viewed_at, deleted_at, created_at, updated_at)
           select 'pkg_bench_${size}_' || g, $1, $2, $3,
                  case when g <= ${SEARCH_HITS} then 'Harbour lease ' || g
                       else 'Contract ' || g || ' ' || ($4::text[])[g % 10 + 1] end,
                  (array['COMPLETED','COMPLETED','COMPLETED','IN_PROGRESS','IN_PROGRESS','DRAFT','VOID','DECLINED','ON_HOLD','SCHEDULED'])[(g / 10) % 10 + 1],
                  case when (g / 10) % 10 = 3 then now() - interval '1 day' end,
                  case when g % 100 = 99 then now() end,
                  now() - make_interval(secs => ${size} + 1 - g), now() - make_interval(secs => ${size} + 1 - g)
           from generate_series(${lo}::int, ${hi}::int) g`,
          [org.organisationId, ws, org.userId, KINDS],
        );
      }
      const t0 = performance.now();
      await runDeclaredJob(packageJobs().foldCounts).run(handle, new AbortController().signal);
      const foldMs = performance.now() - t0;
      await raw.unsafe("vacuum analyze packages");
      await raw.unsafe("vacuum analyze package_counts");
      await raw.unsafe("vacuum analyze package_count_deltas");
      return foldMs;
    };

    // The statements listPackages issues, captured by the driver (its hot reads bypass drizzle's logger), for EXPLAIN.
    const logged = drizzle(traced, { schema }) as unknown as TDb;
    installGenericPlanClient(logged, tracedGeneric as unknown as Parameters<typeof installGenericPlanClient>[1]);
    const explain = async (size: number, label: string, query: { status?: "IN_PROGRESS"; search?: string }) => {
      captured.length = 0;
      await listPackages(logged, ownerActor(org, { id: workspaceOf.get(size)! }), { page: 1, pageSize: 25, ...query });
      console.log(`\n  EXPLAIN of listPackages(${label}) at ${size.toLocaleString("en")}:`);
      for (const q of captured.filter((c) => !c.query.includes("pg_catalog"))) {
        // A statement of the generic-plan pool is explained as it runs there: prepared, with its generic plan.
        const rows = q.generic
          ? await explainGeneric(q.query, q.params)
          : await raw.unsafe(`explain (analyze, buffers, costs off) ${q.query}`, q.params as never[]);
        console.log(
          `    [${q.generic ? "generic plan" : "planned for its values"}] ${q.query.replace(/\s+/g, " ").slice(0, 140)}${q.query.length > 140 ? " …" : ""}`,
        );
        for (const r of rows) console.log(`      ${String(r["QUERY PLAN"])}`);
      }
    };

    let explained = 0;
    const explainGeneric = async (query: string, params: unknown[]) => {
      const name = `bench_explain_${++explained}`;
      const literal = (p: unknown) => (typeof p === "number" ? String(p) : `'${String(p).replace(/'/g, "''")}'`);
      await tracedGeneric.unsafe(`prepare ${name} as ${query}`);
      try {
        return await tracedGeneric.unsafe(`explain (analyze, buffers, costs off) execute ${name}${params.length ? `(${params.map(literal).join(", ")})` : ""}`);
      } finally {
        await tracedGeneric.unsafe(`deallocate ${name}`);
      }
    };

    const countStar = async (ws: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        await raw.unsafe("select count(*) from packages where workspace_id = $1 and deleted_at is null", [ws]);
        times.push(performance.now() - t0);
      }
      return times.sort((a, b) => a - b)[2]!;
    };

    // The servers: this checkout's ("after"), and with BENCH_BEFORE another checkout's ("before").
    // BENCH_SERVER_CPU_PROFILE=<dir>: the server writes a V8 CPU profile there when it exits (node --cpu-prof).
    // BENCH_SERVER_NODE_ARGS="--flag …": extra node flags for the server, to try a V8 setting.
    const profile = process.env.BENCH_SERVER_CPU_PROFILE;
    const nodeArgs = [
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
    ];
    const startServer = async (name: string, dir: string): Promise<TServer> => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const serverArgs = nodeArgs.length
        ? [...nodeArgs, "--import", "tsx", "server/start.ts"]
        : [path.join(dir, "node_modules", "tsx", "dist", "cli.mjs"), "server/start.ts"];
      const proc = spawn(process.execPath, serverArgs, {
        cwd: dir,
        env: {
          ...process.env,
          DATABASE_URL: dbUrl.toString(),
          HOST: "127.0.0.1",
          PORT: String(port),
          PUBLIC_URL: origin,
          DATA_DIR: path.join(dataDir, name || "after"),
          RUN_WORKER: "false",
          TRUSTED_PROXIES: "127.0.0.1",
          LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "info",
          NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
          ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      const server = { name, proc, pool: new Pool(origin, { connections: CONCURRENCY, pipelining: 1 }) };
      servers.push(server);
      const exited = new Promise<never>((_, reject) => proc.once("exit", (code) => reject(new Error(`the ${name} server exited (${code})`))));
      for (const started = Date.now(); ;) {
        const up = await server.pool
          .request({ method: "GET", path: "/api/health/live" })
          .then(async (r) => (await r.body.text(), r.statusCode === 200))
          .catch(() => false);
        if (up) break;
        if (Date.now() - started > 15 * 60_000) throw new Error(`the ${name} server did not start within 15 minutes`);
        await Promise.race([new Promise((r) => setTimeout(r, 500)), exited]);
      }
      return server;
    };
    const before = process.env.BENCH_BEFORE ? await startServer("before", path.resolve(process.env.BENCH_BEFORE)) : undefined;
    const after = await startServer(before ? "after" : "", process.cwd());
    const measured = before ? [before, after] : [after];

    let forwarded = 0;
    const nextAddress = () => {
      forwarded = (forwarded + 1) % 16_000_000;
      return `10.${(forwarded >> 16) & 255}.${(forwarded >> 8) & 255}.${forwarded & 255}`;
    };
    const headersFor = (target: TTarget, size: number) => ({
      "x-forwarded-for": nextAddress(),
      ...(target.auth ? { authorization: `Bearer ${keys.get(size)!}` } : {}),
    });

    // PostgreSQL's CPU: its backends serving the scratch database (their command line names it). Other databases
    // of a shared server, and backends that exit during a measurement, would make the sum meaningless.
    const servesBenchDatabase = (pid: number, comm: string) => {
      if (comm !== "postgres") return false;
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${name} `);
      } catch {
        return false;
      }
    };
    const load = async (server: TServer, target: TTarget, size: number, seconds: number) => {
      const times: number[] = [];
      let failures = 0;
      const until = performance.now() + seconds * 1000;
      const loop = async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          const res = await server.pool.request({ method: "GET", path: target.path, headers: headersFor(target, size) });
          await res.body.text();
          if (res.statusCode !== 200) failures += 1;
          times.push(performance.now() - t0);
        }
      };
      const cpu0 = treeCpuSeconds(server.proc.pid!);
      const pg0 = cpuSecondsOf(servesBenchDatabase);
      const own0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, loop));
      const elapsed = (performance.now() - t0) / 1000;
      const own = process.cpuUsage(own0);
      const pg1 = cpuSecondsOf(servesBenchDatabase);
      const cpu1 = treeCpuSeconds(server.proc.pid!);
      const cpuPerRequest = cpu0 === null || cpu1 === null ? NaN : ((cpu1 - cpu0) / times.length) * 1e6;
      const pgPerRequest = pg0 === null || pg1 === null ? NaN : ((pg1 - pg0) / times.length) * 1e6;
      const loadPerRequest = (own.user + own.system) / times.length;
      if (failures) throw new Error(`${server.name} ${target.name}: ${failures} requests did not answer 200`);
      times.sort((a, b) => a - b);
      return { p50: pct(times, 0.5), p99: pct(times, 0.99), rps: times.length / elapsed, n: times.length, cpuPerRequest, pgPerRequest, loadPerRequest };
    };

    type TFig = Awaited<ReturnType<typeof load>>;
    const rounds = new Map<string, TFig[]>();
    const line = (label: string, fig: TFig) =>
      `  ${label.padEnd(21)} p50 ${ms(fig.p50).padStart(9)}  p99 ${ms(fig.p99).padStart(9)}  ${fig.rps.toFixed(0).padStart(5)} req/s  server CPU ${fig.cpuPerRequest.toFixed(0).padStart(6)} µs/request  (PostgreSQL ${fig.pgPerRequest.toFixed(0)}, load generator ${fig.loadPerRequest.toFixed(0)})  (${fig.n} requests)`;

    console.log(
      `bench:packages — PostgreSQL ${(await raw.unsafe("show server_version"))[0]!.server_version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ` +
        `node ${process.version}, ${CONCURRENCY} requests in flight, ${SECONDS} s per measurement, ${ROUNDS} rounds; load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
    );
    for (const size of [SMALL, LARGE]) {
      const t0 = performance.now();
      const foldMs = await seed(size);
      console.log(`${size.toLocaleString("en")} packages seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (then folded in ${foldMs.toFixed(0)} ms)`);
    }
    for (const size of [SMALL, LARGE]) {
      // Totals as the API reports them.
      const totals: string[] = [];
      for (const target of TARGETS.filter((t) => t.auth)) {
        const res = await after.pool.request({ method: "GET", path: target.path, headers: headersFor(target, size) });
        const body = (await res.body.json()) as { data: { totalCount: number } };
        totals.push(`${target.name} ${body.data.totalCount.toLocaleString("en")}`);
      }
      console.log(`totalCount at ${size.toLocaleString("en")}: ${totals.join(", ")}`);
    }
    const labelOf = (server: TServer, name: string) => (server.name ? `${server.name} ${name}` : name);
    for (const server of measured) for (const target of TARGETS) for (const size of [SMALL, LARGE]) await load(server, target, size, 1); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`\nRound ${round} (load average ${os.loadavg()[0]!.toFixed(1)}):`);
      for (const target of TARGETS) {
        for (const size of target.auth ? [SMALL, LARGE] : [0]) {
          for (const server of measured) {
            const fig = await load(server, target, size || SMALL, SECONDS);
            const label = labelOf(server, size ? `${target.name}@${size >= 1_000_000 ? `${size / 1_000_000}M` : `${size / 1000}k`}` : target.name);
            rounds.set(label, [...(rounds.get(label) ?? []), fig]);
            console.log(line(label, fig));
          }
        }
      }
    }

    for (const size of [SMALL, LARGE]) {
      await explain(size, "default page", {});
      if (size === LARGE) await explain(size, "status=IN_PROGRESS", { status: "IN_PROGRESS" });
      await explain(size, "search=harbour", { search: "harbour" });
      if (size === LARGE) await explain(size, "search=rental", { search: "rental" });
      console.log(`  count(*) of the ${size.toLocaleString("en")} workspace, median of 5: ${ms(await countStar(workspaceOf.get(size)!))}`);
    }

    console.log("\nBulk send of 100 items (two recipients each), alternately in the 10 k and the 1 M workspace:");
    for (let run = 1; run <= (process.env.BENCH_BULK === "false" ? 0 : 4); run++) {
      const size = run % 2 ? SMALL : LARGE;
      const items = Array.from({ length: 100 }, (_, i) => ({
        title: `Bulk ${run}-${i}`,
        recipients: [
          { email: `tenant-${run}-${i}@example.com`, name: "Tenant", roleIndex: 0 },
          { email: `landlord-${run}-${i}@example.com`, name: "Landlord", roleIndex: 1 },
        ],
      }));
      const cpu0 = treeCpuSeconds(after.proc.pid!);
      const started = performance.now();
      const res = await after.pool.request({
        method: "POST",
        path: "/api/v1/packages/bulk-send",
        headers: { ...headersFor(TARGETS[1]!, size), "content-type": "application/json" },
        body: JSON.stringify({ templateId: templates.get(size)!, items }),
      });
      const body = (await res.body.json()) as { data?: { results: { status: string }[] }; error?: string };
      const took = performance.now() - started;
      const cpu1 = treeCpuSeconds(after.proc.pid!);
      const sent = body.data?.results.filter((r) => r.status === "sent").length ?? 0;
      if (res.statusCode !== 200 || sent !== 100) throw new Error(`bulk send answered ${res.statusCode}: ${sent} sent ${body.error ?? ""}`);
      const cpu = cpu0 === null || cpu1 === null ? "n/a" : `${(cpu1 - cpu0).toFixed(1)} s`;
      console.log(
        `  ${size.toLocaleString("en").padStart(9)}: ${(took / 1000).toFixed(2)} s for 100 items (${(took / 100).toFixed(1)} ms per item), all sent; server CPU ${cpu}; load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }

    console.log(`\nSummary: medians over the ${ROUNDS} rounds (targets: p50 at 1 M ≤ 2 × p50 at 10 k; requests/s ≥ 0.5 × bare):`);
    const median = (label: string, pick: (f: TFig) => number) => {
      const v = (rounds.get(label) ?? []).map(pick).sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)] ?? NaN;
    };
    for (const server of measured) {
      const bare = median(labelOf(server, "bare"), (f) => f.rps);
      const bareCpu = median(labelOf(server, "bare"), (f) => f.cpuPerRequest);
      if (server.name) console.log(`  ${server.name}:`);
      console.log(
        `  bare           ${bare.toFixed(0)} req/s, p50 ${ms(median(labelOf(server, "bare"), (f) => f.p50))}, server CPU ${bareCpu.toFixed(0)} µs/request`,
      );
      for (const target of TARGETS.filter((t) => t.auth)) {
        const small = labelOf(server, `${target.name}@10k`);
        const large = labelOf(server, `${target.name}@${LARGE >= 1_000_000 ? `${LARGE / 1_000_000}M` : `${LARGE / 1000}k`}`);
        const ratio = median(large, (f) => f.p50) / median(small, (f) => f.p50);
        const rps = median(large, (f) => f.rps);
        const cpu = median(large, (f) => f.cpuPerRequest);
        console.log(
          `  ${target.name.padEnd(7)} p50 ${ms(median(small, (f) => f.p50))} → ${ms(median(large, (f) => f.p50))} (×${ratio.toFixed(2)} ${ratio <= 2 ? "✔" : "✘"}); ` +
            `p99 ${ms(median(small, (f) => f.p99))} → ${ms(median(large, (f) => f.p99))}; ` +
            `req/s at 1 M ${rps.toFixed(0)} = ${(rps / bare).toFixed(2)} × bare ${rps / bare >= 0.5 ? "✔" : "✘"}; ` +
            `server CPU ${cpu.toFixed(0)} µs/request (bare/this: ${(bareCpu / cpu).toFixed(2)})`,
        );
      }
    }
  } finally {
    for (const { pool, proc } of servers) {
      await pool.close().catch(() => {});
      if (proc.exitCode === null) {
        const gone = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
        if (proc.exitCode === null) proc.kill("SIGKILL");
      }
    }
    await raw.end({ timeout: 5 });
    await traced.end({ timeout: 5 });
    await tracedGeneric.end({ timeout: 5 });
    await handle.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
