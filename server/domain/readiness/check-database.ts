import { sql } from "drizzle-orm";
import { appliedMigrations, MIGRATIONS_DIR, shippedMigrations } from "@/server/db/migrate";
import { check, reason, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Database";

/**
 * Reachable (a round trip) and migrated: drizzle's migrator applies a shipped migration whose `when` is later than
 * the newest it recorded in `drizzle.__drizzle_migrations`, so those are the ones still to apply.
 */
export async function checkDatabase(ctx: TReadinessContext, migrationsDir = MIGRATIONS_DIR): Promise<TReadinessCheck> {
  const kind = ctx.env.DATABASE_URL ? "PostgreSQL" : `PGlite (embedded, in ${ctx.env.pgliteDir})`;
  const facts = [{ label: "Kind", value: kind }];
  if (!ctx.db) {
    return check(
      "database",
      TITLE,
      "fail",
      `The database cannot be reached: ${reason(ctx.dbError ?? "it could not be opened")}.`,
      ctx.env.DATABASE_URL
        ? "Check DATABASE_URL (host, port, database name, user and password) and that PostgreSQL accepts connections from this machine."
        : "Check that PGLITE_DIR (or DATA_DIR) is writable. A running `npm start` holds the embedded database: use the Readiness page in the app instead.",
      facts,
    );
  }
  const started = performance.now();
  try {
    await ctx.db.execute(sql`select 1`);
  } catch (err) {
    return check(
      "database",
      TITLE,
      "fail",
      `The database does not answer: ${reason(err)}.`,
      ctx.env.DATABASE_URL
        ? "Check that PostgreSQL is running, and DATABASE_URL (host, port, database name, user and password)."
        : "Check that PGLITE_DIR (or DATA_DIR) holds a Foliosign database and is readable.",
      facts,
    );
  }
  facts.push({ label: "Round trip", value: `${Math.round(performance.now() - started)} ms` });
  const shipped = shippedMigrations(migrationsDir);
  let applied: { count: number; last: number | null };
  try {
    applied = await appliedMigrations(ctx.db);
  } catch {
    applied = { count: 0, last: null };
  }
  const pending = shipped.filter((m) => applied.last === null || m.when > applied.last);
  facts.push({ label: "Migrations", value: `${shipped.length - pending.length} of ${shipped.length} applied` });
  if (pending.length > 0) {
    return check(
      "database",
      TITLE,
      "fail",
      applied.count === 0
        ? `The database is reachable but not migrated: none of the ${shipped.length} migrations is applied.`
        : `The database is reachable but ${pending.length} migration(s) are not applied (next: ${pending[0]!.tag}).`,
      "Start the server once (`npm start` applies the migrations before it serves), or run any `npm run admin` command.",
      facts,
    );
  }
  const newest = shipped.at(-1)?.when ?? 0;
  if (applied.last !== null && applied.last > newest) {
    return check(
      "database",
      TITLE,
      "warn",
      "The database was migrated by a newer version of Foliosign than this one.",
      "Run the same version of Foliosign everywhere that uses this database.",
      facts,
    );
  }
  return check("database", TITLE, "ok", `The database answers and all ${shipped.length} migrations are applied.`, null, facts);
}
