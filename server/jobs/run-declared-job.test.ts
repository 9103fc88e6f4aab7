/**
 * Protects the declared-job model (server/lib/jobs.ts, ./run-declared-job.ts) on both databases: two
 * runners — on PostgreSQL two connection pools, truly concurrent — never handle one item twice; a handler that
 * throws leaves its item due (rolled back), is logged, does not stop the other items, and is retried only
 * after its backoff; the state is the schedule (an item moved into the future waits until then, on the
 * injected clock); `everyMs` and the per-tick budget pace the looks; a due query that ignores `skip` fails
 * loudly. The items live in a table created here (`job_test_items`), not in a domain table.
 */
import { notInArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, queryRows, type DbHandle } from "@/server/db/client";
import { setClock } from "@/server/lib/clock";
import { defineJob, runDueItem, type TDueItem } from "@/server/lib/jobs";
import { setLogger } from "@/server/lib/logger";
import { captureLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { runDeclaredJob } from "./run-declared-job";

const t = useTestDb();
const T0 = new Date("2030-01-01T00:00:00Z");
const MINUTE = 60_000;

beforeAll(async () => {
  await t.db.execute(sql`create table if not exists job_test_items (
    id text primary key, due_at timestamptz not null, done_at timestamptz, handled_by text)`);
  await t.db.execute(sql`create table if not exists job_test_log (item_id text not null, runner text not null)`);
});
afterEach(() => setLogger(undefined));

async function addItems(ids: string[], dueAt: Date): Promise<void> {
  for (const id of ids) await t.db.execute(sql`insert into job_test_items (id, due_at) values (${id}, ${dueAt.toISOString()}::timestamptz)`);
}
const doneIds = async () => (await queryRows<{ id: string }>(t.db, sql`select id from job_test_items where done_at is not null order by id`)).map((r) => r.id);

/** Due: not done and `due_at` passed. Handling marks it done and logs which runner did it. */
function itemsJob(
  opts: { runner?: string; fail?: (id: string) => boolean; pause?: () => Promise<void>; everyMs?: number; budget?: number; ignoreSkip?: boolean } = {},
) {
  const calls: string[] = [];
  const job = defineJob<TDueItem>({
    name: "test-items",
    everyMs: opts.everyMs,
    budget: opts.budget,
    retryAfterMs: MINUTE,
    async due(tx, { at, skip }) {
      const rows = await queryRows<TDueItem>(
        tx,
        sql`select id from job_test_items
        where done_at is null and due_at <= ${at.toISOString()}::timestamptz and ${opts.ignoreSkip ? sql`true` : notInArray(sql`id`, [...skip])}
        order by due_at, id limit 1 for update skip locked`,
      );
      return rows[0];
    },
    async handle(tx, item, { at }) {
      calls.push(item.id);
      await tx.execute(sql`insert into job_test_log (item_id, runner) values (${item.id}, ${opts.runner ?? "one"})`);
      await tx.execute(sql`update job_test_items set done_at = ${at.toISOString()}::timestamptz, handled_by = ${opts.runner ?? "one"} where id = ${item.id}`);
      await opts.pause?.();
      if (opts.fail?.(item.id)) throw new Error(`cannot handle ${item.id}`);
    },
  });
  return { job, calls };
}

const tick = (job: ReturnType<typeof itemsJob>["job"], handle: DbHandle = t.handle) => runDeclaredJob(job).run(handle, new AbortController().signal);

describe("a declared job", () => {
  it("two runners at once never handle one item twice, and together handle every item", async () => {
    setClock(() => T0);
    const ids = Array.from({ length: 40 }, (_, i) => `item_${String(i).padStart(2, "0")}`);
    await addItems(ids, new Date(T0.getTime() - 1));
    // On PostgreSQL the second runner gets a pool of its own, as a second worker process would.
    const base = process.env.DATABASE_URL;
    let other: DbHandle = t.handle;
    if (t.handle.kind === "postgres" && base) {
      other = await openPostgres(t.url, { max: 2 });
    }
    // Each handler holds its transaction open a moment, so the two runners' claims overlap.
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 2));
    try {
      await Promise.all([tick(itemsJob({ runner: "a", pause }).job), tick(itemsJob({ runner: "b", pause }).job, other)]);
    } finally {
      if (other !== t.handle) await other.close();
    }
    const log = await queryRows<{ item_id: string; runner: string }>(t.db, sql`select item_id, runner from job_test_log`);
    expect(log.map((r) => r.item_id).sort()).toEqual(ids);
    expect(await doneIds()).toEqual(ids);
    // Truly concurrent on PostgreSQL: both runners took a share (PGlite has one connection: they take turns).
    if (t.handle.kind === "postgres") expect(new Set(log.map((r) => r.runner))).toEqual(new Set(["a", "b"]));
  });

  it("a handler that throws leaves its item due, is logged, lets the others through, and is retried after its backoff", async () => {
    let clock = T0;
    setClock(() => clock);
    const log = captureLog();
    await addItems(["a", "b", "c"], new Date(T0.getTime() - 1));
    let poisoned = true;
    const { job, calls } = itemsJob({ fail: (id) => id === "b" && poisoned });
    const runner = runDeclaredJob(job);
    const run = () => runner.run(t.handle, new AbortController().signal);

    await run();
    expect(await doneIds()).toEqual(["a", "c"]);
    // Rolled back: not done, nothing logged for it.
    expect(await queryRows(t.db, sql`select item_id from job_test_log where item_id = 'b'`)).toEqual([]);
    const failure = log.records().find((r) => r.item === "b");
    expect(failure).toMatchObject({ job: "test-items", failures: 1, msg: expect.stringContaining("stays due") });
    expect((failure?.err as { message?: string } | undefined)?.message).toBe("cannot handle b");

    // Within its backoff (retryAfterMs = 1 min) this runner leaves it alone...
    calls.length = 0;
    clock = new Date(T0.getTime() + MINUTE - 1);
    await run();
    expect(calls).toEqual([]);
    // ...then tries again; a second failure doubles the wait.
    clock = new Date(T0.getTime() + MINUTE);
    await run();
    expect(calls).toEqual(["b"]);
    clock = new Date(clock.getTime() + 2 * MINUTE - 1);
    await run();
    expect(calls).toEqual(["b"]);
    poisoned = false;
    clock = new Date(clock.getTime() + 1);
    await run();
    expect(calls).toEqual(["b", "b"]);
    expect(await doneIds()).toEqual(["a", "b", "c"]);
  });

  it("the state is the schedule: an item moved into the future is handled only once that time comes", async () => {
    setClock(() => T0);
    await addItems(["soon", "later"], new Date(T0.getTime() - 1));
    await t.db.execute(sql`update job_test_items set due_at = ${new Date(T0.getTime() + 60 * MINUTE).toISOString()}::timestamptz where id = 'later'`);
    const { job } = itemsJob();
    const runner = runDeclaredJob(job);
    await runner.run(t.handle, new AbortController().signal);
    expect(await doneIds()).toEqual(["soon"]);
    setClock(() => new Date(T0.getTime() + 60 * MINUTE - 1));
    await runner.run(t.handle, new AbortController().signal);
    expect(await doneIds()).toEqual(["soon"]);
    setClock(() => new Date(T0.getTime() + 60 * MINUTE));
    await runner.run(t.handle, new AbortController().signal);
    expect(await doneIds()).toEqual(["later", "soon"]);
  });

  it("looks every `everyMs` at most, and goes on at the next tick when its budget ran out", async () => {
    let clock = T0;
    setClock(() => clock);
    await addItems(["i1", "i2", "i3", "i4", "i5"], new Date(T0.getTime() - 1));
    const { job, calls } = itemsJob({ everyMs: MINUTE, budget: 2 });
    const runner = runDeclaredJob(job);
    const run = () => runner.run(t.handle, new AbortController().signal);
    await run();
    expect(calls).toEqual(["i1", "i2"]);
    // Budget spent with work left: the next tick goes on although everyMs has not passed.
    await run();
    expect(calls).toEqual(["i1", "i2", "i3", "i4"]);
    await run();
    expect(calls).toEqual(["i1", "i2", "i3", "i4", "i5"]);
    // Nothing left: quiet until everyMs has passed since the last look.
    await addItems(["i6"], T0);
    clock = new Date(T0.getTime() + MINUTE - 1);
    await run();
    expect(calls).toHaveLength(5);
    clock = new Date(T0.getTime() + MINUTE);
    await run();
    expect(calls).toEqual(["i1", "i2", "i3", "i4", "i5", "i6"]);
  });

  it("a due query that returns an item it was told to skip fails loudly, and commits nothing", async () => {
    setClock(() => T0);
    await addItems(["x"], new Date(T0.getTime() - 1));
    const { job, calls } = itemsJob({ ignoreSkip: true });
    await expect(runDueItem(t.db, job, { at: T0, skip: ["x"] })).rejects.toThrow(/test-items: its due query returned "x", which it was asked to skip/);
    expect(calls).toEqual([]);
    expect(await doneIds()).toEqual([]);
  });

  it("refuses a declaration with a bad name or pacing", () => {
    const { job } = itemsJob();
    expect(() => defineJob({ ...job, name: "Send Packages" })).toThrow(/kebab-case/);
    expect(() => defineJob({ ...job, budget: 0 })).toThrow(/budget must be a positive integer/);
  });
});
