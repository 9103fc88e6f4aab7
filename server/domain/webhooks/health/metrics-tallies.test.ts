/**
 * /api/metrics reads the finished deliveries and the attempt-duration histogram from the tallies that triggers keep
 * (migration 0034_webhook_tallies), not from every stored row. Checked here: after every way a delivery changes
 * state — through the engine's own functions with a local receiver: the fan-out, a success, failures and retries,
 * exhaustion, a replay, a pause, retention, an endpoint deleted — the scrape's figures equal what counting the
 * stored rows gives (and the histogram never goes down when attempts are removed); the counters of deliveries that
 * ended (migration 0035) count each ending once, a replayed delivery's again, and never go down; folding the
 * tallies changes no figure; and, on PostgreSQL, writers never wait on one another for them and a fold never takes an uncommitted row.
 */
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import { setClock } from "@/server/lib/clock";
import { runDueItem } from "@/server/lib/jobs";
import { useTestDb } from "@/server/test/db";
import { createEndpoint } from "@/server/domain/webhooks/endpoints/create-endpoint";
import { deleteEndpoint } from "@/server/domain/webhooks/endpoints/delete-endpoint";
import { updateEndpoint } from "@/server/domain/webhooks/endpoints/update-endpoint";
import { deliverDueWebhooks } from "@/server/domain/webhooks/delivery/deliver-due-webhooks";
import { pruneDeliveries } from "@/server/domain/webhooks/delivery/prune-deliveries";
import { webhookRetentionJobs } from "@/server/domain/webhooks/jobs";
import { raisePackageSent, setupEndpoint } from "@/server/domain/webhooks/test-support/fixtures";
import { answer } from "@/server/domain/webhooks/test-support/receiver";
import { useLocalReceiver } from "@/server/domain/webhooks/test-support/use-local-receiver";
import { replayDeliveries } from "@/server/domain/webhooks/health/replay-deliveries";
import { renderMetrics } from "./render-metrics";

const t = useTestDb();
const rx = useLocalReceiver();
const deps = { random: () => 0 };
let clock = new Date("2030-04-01T10:00:00.000Z");

afterEach(() => rx.setHandler(answer(200)));

/** The scrape's lines for the deliveries by status and the duration histogram. */
async function scraped(): Promise<string[]> {
  const text = await renderMetrics(t.db, clock);
  return text.split("\n").filter((l) => l.startsWith("foliosign_webhook_deliveries{") || l.startsWith("foliosign_webhook_attempt_duration_seconds"));
}

/** The same lines, counted from every stored delivery and attempt (the scrape's reads before the tallies). */
async function counted(): Promise<string[]> {
  const [d] = await queryRows<Record<string, number>>(
    t.db,
    sql`select count(*) filter (where status = 'PENDING')::int as "PENDING", count(*) filter (where status = 'DELIVERED')::int as "DELIVERED",
      count(*) filter (where status = 'FAILED')::int as "FAILED", count(*) filter (where status = 'EXHAUSTED')::int as "EXHAUSTED"
    from webhook_deliveries`,
  );
  // Written out, not read from DURATION_BUCKETS: the bounds the triggers of migration 0034 count by, so a bound
  // changed in the code alone shows here as a label the scrape prints and this count does not.
  const bounds = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const [a] = await queryRows<Record<string, number>>(
    t.db,
    sql`select ${sql.join(
      bounds.map((b, i) => sql`count(*) filter (where duration_ms <= ${b * 1000})::int as ${sql.identifier(`b${i}`)}`),
      sql`, `,
    )}, count(*)::int as n, coalesce(sum(duration_ms), 0)::int as sum_ms from webhook_attempts where duration_ms is not null`,
  );
  return [
    ...["PENDING", "DELIVERED", "FAILED", "EXHAUSTED"].map((s) => `foliosign_webhook_deliveries{status="${s}"} ${d![s]}`),
    ...bounds.map((b, i) => `foliosign_webhook_attempt_duration_seconds_bucket{le="${b}"} ${a![`b${i}`]}`),
    `foliosign_webhook_attempt_duration_seconds_bucket{le="+Inf"} ${a!.n}`,
    `foliosign_webhook_attempt_duration_seconds_sum ${Number(a!.sum_ms) / 1000}`,
    `foliosign_webhook_attempt_duration_seconds_count ${a!.n}`,
  ];
}

/** The counters of deliveries that reached DELIVERED and EXHAUSTED, ever. */
async function finished(): Promise<[number, number]> {
  const text = await renderMetrics(t.db, clock);
  const of = (status: string) => Number(new RegExp(`^foliosign_webhook_deliveries_finished_total\\{status="${status}"\\} (\\d+)$`, "m").exec(text)?.[1]);
  return [of("DELIVERED"), of("EXHAUSTED")];
}

const tallyRows = async () => (await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from webhook_tallies`))[0]!.n;

/** Runs the fold job until nothing is due, as a worker's ticks would. */
async function fold() {
  const job = webhookRetentionJobs().foldTallies;
  const skip: string[] = [];
  for (let run = await runDueItem(t.db, job, { at: clock, skip }); run; run = await runDueItem(t.db, job, { at: clock, skip })) {
    expect(run.error).toBeUndefined();
    skip.push(run.item.id);
  }
}

it("counts what the stored rows say after every change of a delivery's state, and folding changes no figure", async () => {
  setClock(() => clock);
  const { actor, endpoint: up } = await setupEndpoint(t.db, `${rx.url}/up`);
  const down = await createEndpoint(t.db, actor, { url: `${rx.url}/down` });
  rx.setHandler((req, res) => answer(req.url.endsWith("/down") ? 500 : 200)(req, res));
  const expectExact = async () => expect(await scraped()).toEqual(await counted());

  // The fan-out: two events to two endpoints, all PENDING (read from the queue).
  await raisePackageSent(t.db, actor, "pkg_a");
  await raisePackageSent(t.db, actor, "pkg_b");
  expect(await scraped()).toContain('foliosign_webhook_deliveries{status="PENDING"} 4');
  await expectExact();

  // First attempts: /up's DELIVERED, /down's FAILED; four timed attempts.
  await deliverDueWebhooks(t.db, deps);
  expect(await scraped()).toEqual(
    expect.arrayContaining(['foliosign_webhook_deliveries{status="DELIVERED"} 2', "foliosign_webhook_attempt_duration_seconds_count 4"]),
  );
  await expectExact();
  expect(await finished()).toEqual([2, 0]);

  // Retries until the ninth attempt: EXHAUSTED.
  for (let i = 0; i < 8; i++) {
    clock = new Date(clock.getTime() + 3 * 3_600_000);
    await deliverDueWebhooks(t.db, deps);
    await expectExact();
  }
  expect(await scraped()).toEqual(
    expect.arrayContaining(['foliosign_webhook_deliveries{status="EXHAUSTED"} 2', "foliosign_webhook_attempt_duration_seconds_count 20"]),
  );

  expect(await finished()).toEqual([2, 2]);

  // Folded into one row: the same figures.
  expect(await tallyRows()).toBeGreaterThan(2);
  const before = await scraped();
  await fold();
  expect(await tallyRows()).toBe(1);
  expect(await scraped()).toEqual(before);
  expect(await finished()).toEqual([2, 2]);

  // A replay (EXHAUSTED → PENDING), one more failure, then a pause (→ EXHAUSTED "endpoint paused").
  const downIds = (await queryRows<{ id: string }>(t.db, sql`select id from webhook_deliveries where endpoint_id = ${down.id}`)).map((r) => r.id);
  for (const deliveryId of downIds) await replayDeliveries(t.db, actor, { endpointId: down.id, deliveryId });
  expect(await scraped()).toContain('foliosign_webhook_deliveries{status="EXHAUSTED"} 0');
  await expectExact();
  expect(await finished()).toEqual([2, 2]); // a replay takes nothing from the counters
  await deliverDueWebhooks(t.db, deps);
  await expectExact();
  await updateEndpoint(t.db, actor, { endpointId: down.id, enabled: false });
  expect(await scraped()).toContain('foliosign_webhook_deliveries{status="EXHAUSTED"} 2');
  await expectExact();
  expect(await finished()).toEqual([2, 4]); // the replayed deliveries ended again

  // Removing deliveries (retention, then an endpoint deleted with its deliveries) lowers their counts; their
  // attempts leave the stored rows but stay in the cumulative histogram.
  const histogram = (lines: string[]) => lines.filter((l) => l.startsWith("foliosign_webhook_attempt_duration_seconds"));
  const kept = histogram(await scraped());
  expect(kept).toContain("foliosign_webhook_attempt_duration_seconds_count 22");
  clock = new Date(clock.getTime() + 40 * 24 * 3_600_000);
  await raisePackageSent(t.db, actor, "pkg_c");
  await deliverDueWebhooks(t.db, deps); // /up's new delivery DELIVERED (a 23rd timed attempt); /down is paused
  expect((await pruneDeliveries(t.db, { retentionDays: 30 })).deliveries).toBe(4);
  const afterPrune = await scraped();
  expect(afterPrune).toEqual(
    expect.arrayContaining([
      'foliosign_webhook_deliveries{status="DELIVERED"} 1',
      'foliosign_webhook_deliveries{status="EXHAUSTED"} 0',
      "foliosign_webhook_attempt_duration_seconds_count 23",
    ]),
  );
  expect(await finished()).toEqual([3, 4]); // removals take nothing from the counters
  await deleteEndpoint(t.db, actor, { endpointId: up.id });
  const afterDelete = await scraped();
  expect(afterDelete.filter((l) => l.startsWith("foliosign_webhook_deliveries{"))).toEqual(
    (await counted()).filter((l) => l.startsWith("foliosign_webhook_deliveries{")),
  );
  expect(afterDelete).toContain('foliosign_webhook_deliveries{status="DELIVERED"} 0');
  expect(histogram(afterDelete)).toEqual(histogram(afterPrune));
  expect(histogram(await counted())).toContain("foliosign_webhook_attempt_duration_seconds_count 0");
  expect(await finished()).toEqual([3, 4]);
  await fold();
  expect(await scraped()).toEqual(afterDelete);
  expect(await finished()).toEqual([3, 4]);
});

it("leaves a single tally row alone, and folds at most what it locked", async () => {
  const job = webhookRetentionJobs().foldTallies;
  await t.db.execute(sql`insert into webhook_tallies (delivered, attempts, le_10s, duration_ms) values (3, 2, 2, 900)`);
  expect(await runDueItem(t.db, job, { at: clock, skip: [] })).toBeUndefined();
  await t.db.execute(sql`insert into webhook_tallies (delivered, exhausted) values (-1, 1), (2, 0)`);
  const run = await runDueItem(t.db, job, { at: clock, skip: [] });
  expect(run?.error).toBeUndefined();
  const rows = await queryRows<Record<string, string | number>>(
    t.db,
    sql`select delivered::int, exhausted::int, attempts::int, le_10s::int, duration_ms::int from webhook_tallies`,
  );
  expect(rows).toEqual([{ delivered: 4, exhausted: 1, attempts: 2, le_10s: 2, duration_ms: 900 }]);
});

it("counts a delivery that ends in a statement that also moves another out of that status", async () => {
  setClock(() => clock);
  const { actor } = await setupEndpoint(t.db, `${rx.url}/up`);
  await raisePackageSent(t.db, actor, "pkg_a");
  await raisePackageSent(t.db, actor, "pkg_b");
  const [a, b] = (await queryRows<{ id: string }>(t.db, sql`select id from webhook_deliveries order by id`)).map((r) => r.id);
  await t.db.execute(sql`update webhook_deliveries set status = 'EXHAUSTED' where id = ${a!}`);
  expect(await finished()).toEqual([0, 1]);
  // One statement: a leaves EXHAUSTED, b enters it. The stored count stays 1; the counter counts b's ending.
  await t.db.execute(sql`update webhook_deliveries set status = case when id = ${a!} then 'PENDING' else 'EXHAUSTED' end where id in (${a!}, ${b!})`);
  expect(await scraped()).toContain('foliosign_webhook_deliveries{status="EXHAUSTED"} 1');
  expect(await finished()).toEqual([0, 2]);
  // A statement that leaves a finished delivery finished counts nothing.
  await t.db.execute(sql`update webhook_deliveries set status = 'EXHAUSTED', updated_at = now() where id = ${b!}`);
  expect(await finished()).toEqual([0, 2]);
});

describe.skipIf(!process.env.DATABASE_URL)("writers and the fold, concurrently (PostgreSQL)", () => {
  it("never makes one outcome wait for another's tally, and never folds a row that is not committed", async () => {
    setClock(() => clock);
    const { actor } = await setupEndpoint(t.db, `${rx.url}/up`);
    await raisePackageSent(t.db, actor, "pkg_a");
    await raisePackageSent(t.db, actor, "pkg_b");
    const ids = (await queryRows<{ id: string }>(t.db, sql`select id from webhook_deliveries order by id`)).map((r) => r.id);
    const other = postgres(t.url, { max: 1, onnotice: () => {} });
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let updated!: () => void;
      const inside = new Promise<void>((r) => (updated = r));
      // Another connection ends one delivery and holds its transaction open: its tally row is written, not committed.
      const open = other.begin(async (tx) => {
        await tx`delete from webhook_queue where delivery_id = ${ids[0]!}`;
        await tx`update webhook_deliveries set status = 'DELIVERED' where id = ${ids[0]!}`;
        updated();
        await held;
      });
      await inside;
      // This one ends the other delivery and commits meanwhile: appending its tally waits for nothing.
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`delete from webhook_queue where delivery_id = ${ids[1]!}`);
        await tx.execute(sql`update webhook_deliveries set status = 'EXHAUSTED' where id = ${ids[1]!}`);
      });
      // A fold now sees only committed rows; the open one stays as it is.
      await t.db.execute(sql`insert into webhook_tallies (attempts) values (0)`);
      await fold();
      expect(await scraped()).toEqual(
        expect.arrayContaining(['foliosign_webhook_deliveries{status="DELIVERED"} 0', 'foliosign_webhook_deliveries{status="EXHAUSTED"} 1']),
      );
      release();
      await open;
      expect(await scraped()).toEqual(
        expect.arrayContaining(['foliosign_webhook_deliveries{status="DELIVERED"} 1', 'foliosign_webhook_deliveries{status="EXHAUSTED"} 1']),
      );
      await fold();
      expect(await tallyRows()).toBe(1);
      expect(await scraped()).toEqual(await counted());
    } finally {
      await other.end();
    }
  });
});
