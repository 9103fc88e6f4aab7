/**
 * Retention against a large delivery history (not a test). `npm run bench:retention -- [deliveries=1000000]
 * [rounds=3]` with DATABASE_URL pointing at a PostgreSQL server: a migrated scratch database beside it
 * (bench/scratch-database.ts), dropped at the end. It holds `deliveries` retained deliveries (yesterday's, ten
 * per event) and, each round, 3,000 events past the retention age whose deliveries are already gone; it times
 * the prune-events job's batches (server/domain/webhooks/jobs.ts, the worker's own code: the orphan check, the
 * delete and the trigger that deletes an event's deliveries) with the deliveries' index by event dropped — the
 * baseline, as before migration 0031 — and with it, alternately in the same run, and prints the medians and
 * their ratio.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { machineLine } from "./machine";
import { withScratchDatabase } from "./scratch-database";

process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

const [DELIVERIES = 1_000_000, ROUNDS = 3] = process.argv.slice(2).map(Number);
const ORPHANS = 3_000;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function main() {
  const { createTestOrg } = await import("@/server/test/factories");
  const { webhookRetentionJobs } = await import("@/server/domain/webhooks/jobs");
  const { runDueItem } = await import("@/server/lib/jobs");
  console.log(`Retention against a delivery history — ${new Date().toISOString()}`);
  console.log(machineLine());
  await withScratchDatabase("foliosign_bench_retention", { max: 2 }, async (handle) => {
    const db = handle.db;
    const org = await createTestOrg(db);
    const recent = new Date(Date.now() - 86_400_000).toISOString();
    // No foreign key holds a delivery to its event or endpoint (migration 0030): the history is made directly.
    await db.execute(sql`insert into webhook_events (id, organisation_id, workspace_id, event, payload, body, created_at)
      select 'evr_' || g, ${org.organisationId}, ${org.workspaceId}, 'PACKAGE_SENT', '{}'::jsonb, '{}', ${recent}::timestamptz
      from generate_series(0, ${Math.ceil(DELIVERIES / 10)}::int) g`);
    await db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, event, status, attempts, created_at, completed_at)
      select 'whd_' || g, 'evr_' || (g / 10), 'ep_' || (g % 10), 'PACKAGE_SENT', 'DELIVERED', 1, ${recent}::timestamptz, ${recent}::timestamptz
      from generate_series(1, ${DELIVERIES}::int) g`);
    await db.execute(sql`vacuum analyze webhook_deliveries`);
    const jobs = webhookRetentionJobs({ retentionDays: 30 });
    const times: Record<"without" | "with", number[]> = { without: [], with: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 ? (["with", "without"] as const) : (["without", "with"] as const)) {
        if (variant === "without") await db.execute(sql`drop index if exists webhook_deliveries_event_idx`);
        else await db.execute(sql`create index if not exists webhook_deliveries_event_idx on webhook_deliveries (event_id)`);
        await db.execute(sql`insert into webhook_events (id, organisation_id, workspace_id, event, payload, body, created_at)
          select 'evo_' || ${`${round}_${variant}_`} || g, ${org.organisationId}, ${org.workspaceId}, 'PACKAGE_SENT', '{}'::jsonb, '{}',
            '2020-01-01T00:00:00Z'::timestamptz
          from generate_series(1, ${ORPHANS}::int) g`);
        await db.execute(sql`analyze webhook_events`);
        const batches: number[] = [];
        let pruned = 0;
        for (;;) {
          const t0 = performance.now();
          const run = await runDueItem(db, jobs.pruneEvents, { at: new Date(), skip: [] });
          if (!run) break;
          if ("error" in run) throw run.error;
          batches.push(performance.now() - t0);
          pruned += run.item.ids.length;
        }
        if (pruned !== ORPHANS) throw new Error(`pruned ${pruned} events, expected ${ORPHANS}`);
        times[variant].push(...batches);
        console.log(
          `round ${round + 1} ${variant === "with" ? "with the index   " : "without the index"}: ${batches.length} batches of up to 1,000 events, ` +
            `${batches.map((b) => b.toFixed(1)).join(", ")} ms`,
        );
      }
    }
    const a = median(times.without);
    const b = median(times.with);
    console.log(`\n${DELIVERIES.toLocaleString("en")} retained deliveries; a batch of the prune-events job, median over ${ROUNDS} rounds:`);
    console.log(`without the index by event ${a.toFixed(1)} ms, with it ${b.toFixed(1)} ms: ${(a / b).toFixed(1)} × faster`);
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
