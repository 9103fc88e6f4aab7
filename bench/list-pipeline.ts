/**
 * In-process CPU cost of the `GET /api/v1/packages` route handler (not a test; a tool for profiling the
 * pipeline without Next or HTTP in the way). PostgreSQL: a scratch database beside DATABASE_URL, 10 k packages,
 * an admin key; then the route's exported GET is called `requests` times, `concurrency` at a time, and the
 * process CPU per call (process.cpuUsage) is printed, with the bare cost of building a Request for comparison.
 * Run with `node --cpu-prof --import tsx bench/list-pipeline.ts` for a profile.
 *
 * Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/list-pipeline.ts [requests=5000] [concurrency=8] [query=]
 */
import { randomBytes } from "node:crypto";
import { withScratchDatabase } from "./scratch-database";

const [REQUESTS = 5000, CONCURRENCY = 8] = process.argv.slice(2, 4).map(Number);
const QUERY = process.argv[4] ?? "";

async function main() {
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
  process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("hex");
  process.env.LOG_LEVEL ??= "info";
  process.env.TRUSTED_PROXIES = "127.0.0.1";
  const { default: postgres } = await import("postgres");
  const { createTestKey, createTestOrg } = await import("@/server/test/factories");
  const { packageJobs } = await import("@/server/domain/packages/jobs");
  const { runDeclaredJob } = await import("@/server/jobs/run-declared-job");
  await withScratchDatabase("foliosign_bench_pipeline", {}, async (handle, url) => {
    const org = await createTestOrg(handle.db, "Bench");
    const key = (await createTestKey(handle.db, org)).value;
    const raw = postgres(url, { max: 1, onnotice: () => {} });
    await raw.unsafe(
      `insert into packages (id, organisation_id, workspace_id, owner_user_id, title, status, created_at, updated_at)
       select 'pkg_b_' || g, $1, $2, $3, 'Contract ' || g, (array['COMPLETED','IN_PROGRESS','DRAFT'])[g % 3 + 1],
              now() - make_interval(secs => 10001 - g), now() - make_interval(secs => 10001 - g)
       from generate_series(1, 10000) g`,
      [org.organisationId, org.workspaceId, org.userId],
    );
    await runDeclaredJob(packageJobs().foldCounts).run(handle, new AbortController().signal);
    await raw.unsafe("vacuum analyze");
    await raw.end();
    const { GET } = await import("@/app/api/v1/packages/route");
    let n = 0;
    const call = async () => {
      n++;
      const req = new Request(`http://127.0.0.1/api/v1/packages${QUERY}`, {
        headers: { authorization: `Bearer ${key}`, "x-foliosign-client-address": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      });
      const res = await GET(req, { params: Promise.resolve({}) });
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
      await res.text();
    };
    const run = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (left-- > 0) await call();
        }),
      );
    };
    await run(500); // warm-up
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run(REQUESTS);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `${REQUESTS} calls of GET /api/v1/packages${QUERY}, ${CONCURRENCY} at a time: ${((cpu.user + cpu.system) / REQUESTS).toFixed(0)} µs CPU per call ` +
        `(user ${(cpu.user / REQUESTS).toFixed(0)}, system ${(cpu.system / REQUESTS).toFixed(0)}), ${(REQUESTS / (wall / 1000)).toFixed(0)} calls/s`,
    );
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
