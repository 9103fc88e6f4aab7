import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import path from "node:path";
import type { Db, Schema } from "./driver";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

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
