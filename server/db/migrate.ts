import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import path from "node:path";
import { queryRows, type Db, type Schema } from "./driver";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

/** The migrations this code ships (`<folder>/meta/_journal.json`): each one's tag and its `when`, which drizzle records. */
export function shippedMigrations(folder: string = MIGRATIONS_DIR): { tag: string; when: number }[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string; when: number }[] };
  return journal.entries.map((e) => ({ tag: e.tag, when: e.when }));
}

/**
 * The migrations a database records (`drizzle.__drizzle_migrations`): how many, and the newest one's `when`
 * (null when none). Throws when the database was never migrated (the table does not exist).
 */
export async function appliedMigrations(db: Db): Promise<{ count: number; last: number | null }> {
  const [row] = await queryRows<{ count: number | string; last: number | string | null }>(
    db,
    sql`select count(*) as count, max(created_at) as last from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row?.count ?? 0), last: row?.last === null || row?.last === undefined ? null : Number(row.last) };
}

/** What `migrate` needs of a handle (server/db/client.ts's `DbHandle`; typed here so migrate imports no client). */
type TMigratable = { kind: "pglite" | "postgres"; db: Db; withMigrationLock?: <T>(fn: () => Promise<T>) => Promise<T> };

/**
 * Applies the committed drizzle-kit migrations in `drizzle/` (or in `folder`: bench:peers migrates its "base" peer
 * with the other checkout's own). Idempotent; serialised across processes on PostgreSQL.
 */
export async function migrate(handle: TMigratable, folder: string = MIGRATIONS_DIR): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(handle.db as unknown as PgliteDatabase<Schema>, { migrationsFolder: folder });
  } else {
    const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
    const apply = () => run(handle.db as unknown as PostgresJsDatabase<Schema>, { migrationsFolder: folder });
    await (handle.withMigrationLock ? handle.withMigrationLock(apply) : apply());
  }
}
