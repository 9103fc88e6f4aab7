/**
 * Deleting a parent row against large child tables (not a test). `npm run bench:parent-deletes -- [packages=500000]
 * [rounds=3]` with DATABASE_URL pointing at a PostgreSQL server: a migrated scratch database beside it
 * (bench/scratch-database.ts), dropped at the end. It holds `packages` packages made from templates, a recipient
 * session each and two mail messages per session, then times the two deletions that set a foreign key to null
 * in the largest tables — a template's (its 10 packages' `template_id`) and a recipient session's (its 2 messages'
 * `session_id`, as removing a recipient does) — with the key's index dropped (the baseline, as before migration
 * 0032) and with it, alternately in the same run, and prints the medians and their ratios.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { machineLine } from "./machine";
import { withScratchDatabase } from "./scratch-database";

process.env.LOG_LEVEL ??= "warn";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("hex");

const [PACKAGES = 500_000, ROUNDS = 3] = process.argv.slice(2).map(Number);
/** Deletions timed per variant and round. */
const DELETES = 5;

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

const CASES = [
  {
    name: "a template (its packages' template set to null)",
    index: sql`create index if not exists packages_template_idx on packages (template_id) where template_id is not null`,
    drop: sql`drop index if exists packages_template_idx`,
    remove: (n: number) => sql`delete from templates where id = ${`tpl_${n}`}`,
  },
  {
    name: "a recipient session (its mail's session set to null)",
    index: sql`create index if not exists mail_messages_session_idx on mail_messages (session_id) where session_id is not null`,
    drop: sql`drop index if exists mail_messages_session_idx`,
    remove: (n: number) => sql`delete from recipient_sessions where id = ${`rcs_${n}`}`,
  },
] as const;

async function main() {
  const { createTestOrg } = await import("@/server/test/factories");
  console.log(`Deleting parents of large child tables — ${new Date().toISOString()}`);
  console.log(machineLine());
  await withScratchDatabase("foliosign_bench_parent_deletes", { max: 2 }, async (handle) => {
    const db = handle.db;
    const org = await createTestOrg(db);
    const templates = Math.ceil(PACKAGES / 10);
    await db.execute(sql`insert into templates (id, organisation_id, workspace_id, name)
      select 'tpl_' || g, ${org.organisationId}, ${org.workspaceId}, 'Template ' || g from generate_series(0, ${templates - 1}::int) g`);
    await db.execute(sql`insert into packages (id, organisation_id, workspace_id, title, owner_user_id, template_id)
      select 'pkg_' || g, ${org.organisationId}, ${org.workspaceId}, 'Package ' || g, ${org.userId}, 'tpl_' || (g / 10)
      from generate_series(0, ${PACKAGES - 1}::int) g`);
    await db.execute(sql`insert into recipient_sessions (id, package_id, position)
      select 'rcs_' || g, 'pkg_' || g, 0 from generate_series(0, ${PACKAGES - 1}::int) g`);
    await db.execute(sql`insert into mail_messages (id, organisation_id, workspace_id, kind, to_email, subject, html, text, session_id)
      select 'mail_' || g, ${org.organisationId}, ${org.workspaceId}, 'INVITATION', 'signer@example.com', 'Please sign', '<p>Sign</p>', 'Sign',
        'rcs_' || (g / 2)
      from generate_series(0, ${2 * PACKAGES - 1}::int) g`);
    await db.execute(sql`vacuum analyze`);
    console.log(
      `${PACKAGES.toLocaleString("en")} packages from ${templates.toLocaleString("en")} templates, a session each, ${(2 * PACKAGES).toLocaleString("en")} messages`,
    );
    let next = 0;
    for (const c of CASES) {
      const times: Record<"without" | "with", number[]> = { without: [], with: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const variant of round % 2 ? (["with", "without"] as const) : (["without", "with"] as const)) {
          await db.execute(variant === "with" ? c.index : c.drop);
          const runs: number[] = [];
          for (let i = 0; i < DELETES; i++) {
            const t0 = performance.now();
            await db.execute(c.remove(next++));
            runs.push(performance.now() - t0);
          }
          times[variant].push(...runs);
          console.log(
            `${c.name}, round ${round + 1}, ${variant === "with" ? "with the index   " : "without the index"}: ${runs.map((r) => r.toFixed(1)).join(", ")} ms`,
          );
        }
      }
      const a = median(times.without);
      const b = median(times.with);
      console.log(`=> deleting ${c.name}: median ${a.toFixed(1)} ms without the index, ${b.toFixed(1)} ms with it (${(a / b).toFixed(0)} × faster)\n`);
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
