/**
 * The webhook dashboards against a retained delivery history (not a test). `npm run bench:dashboards --
 * [deliveries=1000000] [rounds=3] [reps=3]` with DATABASE_URL pointing at a PostgreSQL server: a migrated scratch
 * database beside it (bench/scratch-database.ts), dropped at the end. One workspace with ten endpoints holds
 * `deliveries` deliveries spread evenly over the 30 days retention keeps by default (97 % delivered at the first
 * attempt, 2 % at the second, 1 % exhausted after three; the last 2,000 still queued, half of them failed once),
 * and their attempts; a second workspace holds as many again, so what is instance-wide shows. Each round times
 * every read the webhook pages and the API make (bench/dashboards-reads.ts, in a process of its own: a warm-up,
 * then `reps` times each) and prints each read's median. BENCH_BASE=<dir> (a checkout of another commit with its
 * node_modules, e.g. a `git worktree`) times that build's reads too, alternately in the same rounds on the same
 * database, and prints the ratios.
 */
import { fork } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { idArray } from "@/server/lib/ids";
import { machineLine } from "./machine";
import { withScratchDatabase } from "./scratch-database";

process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
// The endpoints are only rows here (nothing is sent): loopback addresses, so registering them resolves no name.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

const [DELIVERIES = 1_000_000, ROUNDS = 3, REPS = 3] = process.argv.slice(2).map(Number);
const ENDPOINTS = 10;
const QUEUED = 2_000;
const DAY_MS = 86_400_000;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

type TTimes = Record<string, number[]>;

/** Times the reads in a process of `dir`'s checkout (its own code, its own `@/` paths). */
function timeReads(dir: string, input: object): Promise<TTimes> {
  const file = path.join(dir, "bench", "dashboards-reads.ts");
  // An older checkout has no reads script: this one's, copied in (it only imports the app's read functions).
  if (!existsSync(file)) copyFileSync(path.join(import.meta.dirname, "dashboards-reads.ts"), file);
  return new Promise((resolve, reject) => {
    // tsx reads tsconfig.json (the `@/` paths) from the working directory: the checkout's own.
    const child = fork(file, [JSON.stringify(input)], { cwd: dir, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.once("message", (m) => resolve(m as TTimes));
    child.once("exit", (code) => (code ? reject(new Error(`reads in ${dir} exited with ${code}`)) : undefined));
  });
}

async function main() {
  const { createTestOrg } = await import("@/server/test/factories");
  const { workspaceActor } = await import("@/server/test/actors");
  const { createEndpoint } = await import("@/server/domain/webhooks/endpoints/create-endpoint");
  const base = process.env.BENCH_BASE;
  console.log(`The webhook dashboards against a retained history — ${new Date().toISOString()}`);
  console.log(machineLine());
  await withScratchDatabase("foliosign_bench_dashboards", { max: 2 }, async (handle, url) => {
    const db = handle.db;
    const workspaces = [];
    for (const name of ["Acme", "Other"]) {
      const org = await createTestOrg(db, name);
      const actor = workspaceActor(org.organisationId, org.workspaceId);
      const endpoints = [];
      for (let i = 0; i < ENDPOINTS; i++) endpoints.push((await createEndpoint(db, actor, { url: `http://127.0.0.1:${9000 + i}/in` })).id);
      workspaces.push({ org, endpoints });
    }
    const t0 = performance.now();
    const now = Date.now();
    for (const [w, { org, endpoints }] of workspaces.entries()) {
      const p = `w${w}_`;
      const eps = sql`${idArray(endpoints)}::text[]`;
      // Created evenly over 30 days, oldest first (g = 1 the oldest); the last QUEUED still queued.
      const created = sql`(${new Date(now - 30 * DAY_MS).toISOString()}::timestamptz + (g::float8 / ${DELIVERIES}::int) * interval '30 days')`;
      await db.execute(sql`insert into webhook_events (id, organisation_id, workspace_id, event, payload, body, created_at)
        select ${p} || 'ev_' || g, ${org.organisationId}, ${org.workspaceId}, 'PACKAGE_SENT', '{}'::jsonb, '{}', ${created}
        from generate_series(1, ${DELIVERIES}::int) g`);
      await db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts, next_attempt_at, last_attempt_at,
          last_response_status, last_duration_ms, completed_at, created_at)
        select ${p} || 'whd_' || g, ${p} || 'ev_' || g, (${eps})[1 + g % ${ENDPOINTS}::int], 'PACKAGE_SENT',
          case when g > ${DELIVERIES - QUEUED}::int then (case when g % 2 = 0 then 'PENDING' else 'FAILED' end)
               when g % 100 = 0 then 'EXHAUSTED' else 'DELIVERED' end,
          case when g > ${DELIVERIES - QUEUED}::int then g % 2 when g % 100 = 0 then 3 when g % 50 = 1 then 2 else 1 end,
          ${created} + interval '1 minute', ${created}, 200, 40, ${created}, ${created}
        from generate_series(1, ${DELIVERIES}::int) g`);
      // The engine's invariant: a queue row for each queued (PENDING or FAILED) delivery, and only for those.
      await db.execute(sql`insert into webhook_queue (delivery_id, endpoint_id, event_id, event, next_attempt_at, attempts)
        select d.id, d.endpoint_id, d.event_id, d.event, d.next_attempt_at, d.attempts from webhook_deliveries d
        where d.status in ('PENDING', 'FAILED') and d.id like ${p + "%"}`);
      // Attempts: one per counted attempt, a second apart.
      await db.execute(sql`insert into webhook_attempts (id, delivery_id, endpoint_id, attempt_number, started_at, duration_ms, response_status,
          remote_address, created_at)
        select d.id || '_' || n, d.id, d.endpoint_id, n, d.created_at + (n - 1) * interval '1 second', 20 + (n * 7) % 60,
          case when d.status = 'EXHAUSTED' or n < d.attempts or d.status = 'FAILED' then 500 else 200 end, '203.0.113.7', d.created_at
        from webhook_deliveries d, generate_series(1, d.attempts) n where d.id like ${p + "%"}`);
    }
    await db.execute(sql`vacuum analyze`);
    const [{ attempts } = { attempts: 0 }] = (await db.execute(sql`select count(*)::int as attempts from webhook_attempts`)) as unknown as {
      attempts: number;
    }[];
    console.log(
      `seeded ${(2 * DELIVERIES).toLocaleString("en")} deliveries (${DELIVERIES.toLocaleString("en")} a workspace, ${ENDPOINTS} endpoints each) ` +
        `and ${Number(attempts).toLocaleString("en")} attempts in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    const { org, endpoints } = workspaces[0]!;
    const input = { url, organisationId: org.organisationId, workspaceId: org.workspaceId, endpointId: endpoints[3]!, reps: REPS };
    const builds = base ? (["ours", "base"] as const) : (["ours"] as const);
    const times: Record<string, TTimes> = { ours: {}, base: {} };
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of round % 2 ? [...builds].reverse() : builds) {
        const got = await timeReads(build === "base" ? base! : path.join(import.meta.dirname, ".."), input);
        for (const [name, v] of Object.entries(got)) (times[build]![name] ??= []).push(...v);
      }
    }
    console.log(`\nmedian of ${ROUNDS} rounds × ${REPS} (ms)${base ? `; base: ${base}` : ""}:`);
    console.log(`  ${"read".padEnd(48)} ${"ours".padStart(9)}${base ? `${"base".padStart(10)}${"base ÷ ours".padStart(12)}` : ""}`);
    for (const [name, v] of Object.entries(times.ours!)) {
      const ours = median(v);
      const b = times.base![name];
      const cols = b ? `${median(b).toFixed(1).padStart(10)}${(median(b) / ours).toFixed(1).padStart(11)}×` : "";
      console.log(`  ${name.padEnd(48)} ${ours.toFixed(1).padStart(9)}${cols}`);
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
