/**
 * In-process CPU cost of the send route, beside create-from-template (issue 26; not a test: a tool for profiling
 * without Next or HTTP in the way, like bench/list-pipeline.ts). PostgreSQL: a scratch database beside
 * DATABASE_URL, an organisation with an API key and the bench:api template (2 roles, 3 fields, a merge field).
 * In rounds, `requests` drafts are created through POST /api/v1/packages/from-template (their process CPU per call
 * printed as "create"), then each is sent through POST /api/v1/packages/{id}/send ("send"); `concurrency` at a time.
 * The medians of the rounds' CPU per call (process.cpuUsage: user + system) are printed.
 * Run with `node --cpu-prof --import tsx bench/send-pipeline.ts` for a profile; with BENCH_WINDOWS=<file> the measured
 * windows (monotonic µs, the profile's clock) are written there as JSON, to split the profile by target.
 *
 * Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/send-pipeline.ts [requests=300] [concurrency=4] [rounds=3]
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { withScratchDatabase } from "./scratch-database";

process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("hex");
process.env.PUBLIC_URL ??= "http://127.0.0.1:3000";

const [REQUESTS = 300, CONCURRENCY = 4, ROUNDS = 3] = process.argv.slice(2, 5).map(Number);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const { createTestKey, createTestOrg } = await import("@/server/test/factories");
  const { createActiveTemplate } = await import("@/server/domain/packages/test-support/fixtures");
  const { callRoute } = await import("@/server/test/http");
  const { POST: fromTemplateRoute } = await import("@/app/api/v1/packages/from-template/route");
  const { POST: sendRoute } = await import("@/app/api/v1/packages/[packageId]/send/route");
  await withScratchDatabase("foliosign_bench_send", { max: 10 }, async (handle) => {
    const org = await createTestOrg(handle.db, "Bench");
    const key = (await createTestKey(handle.db, org)).value;
    const { templateId } = await createActiveTemplate(handle.db, org);
    const recipients = [
      { email: "tenant@example.com", name: "Tina", roleIndex: 0 },
      { email: "landlord@example.com", roleIndex: 1 },
    ];
    let n = 0;
    const address = () => {
      n++;
      return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    };
    const expect = async (res: Response, status: number) => {
      const text = await res.text();
      if (res.status !== status) throw new Error(`answered ${res.status}, expected ${status}: ${text}`);
      return text;
    };
    const create = async (i: number) =>
      (
        JSON.parse(
          await expect(await callRoute(fromTemplateRoute, { key, body: { templateId, title: `Lease ${i}`, recipients }, address: address() }), 201),
        ) as { data: { id: string } }
      ).data.id;
    const send = async (id: string) => void (await expect(await callRoute(sendRoute, { key, params: { packageId: id }, body: {}, address: address() }), 200));
    /** Runs `count` calls, CONCURRENCY in flight; returns µs of process CPU per call. */
    const windows: { create: [number, number][]; send: [number, number][] } = { create: [], send: [] };
    const measure = async (what: "create" | "send", count: number, one: (i: number) => Promise<void>) => {
      let next = 0;
      const start = Number(process.hrtime.bigint() / 1000n);
      const cpu0 = process.cpuUsage();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = next++; i < count; i = next++) await one(i);
        }),
      );
      const cpu = process.cpuUsage(cpu0);
      windows[what].push([start, Number(process.hrtime.bigint() / 1000n)]);
      return (cpu.user + cpu.system) / count;
    };
    const round = async (count: number) => {
      const ids: string[] = [];
      const createCpu = await measure("create", count, async (i) => void (ids[i] = await create(i)));
      const sendCpu = await measure("send", count, (i) => send(ids[i]!));
      return { createCpu, sendCpu };
    };
    await round(Math.min(100, REQUESTS)); // warm-up
    const creates: number[] = [];
    const sends: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const { createCpu, sendCpu } = await round(REQUESTS);
      creates.push(createCpu);
      sends.push(sendCpu);
      console.log(`round ${r + 1}: create ${createCpu.toFixed(0)} µs CPU per call, send ${sendCpu.toFixed(0)}`);
    }
    console.log(
      `${REQUESTS} × ${ROUNDS} calls each, ${CONCURRENCY} at a time, median process CPU per call: create ${median(creates).toFixed(0)} µs, send ${median(sends).toFixed(0)} µs`,
    );
    // The measured windows, in the CPU profile's clock (monotonic µs), to split a --cpu-prof profile by target.
    if (process.env.BENCH_WINDOWS) writeFileSync(process.env.BENCH_WINDOWS, JSON.stringify(windows));
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
