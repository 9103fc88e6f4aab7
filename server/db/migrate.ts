import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { DbHandle, Schema } from "./client";
import { MIGRATIONS_DIR } from "./client";

/** Applies the committed drizzle-kit migrations in `drizzle/`. Idempotent; serialised across processes on PostgreSQL. */
export async function migrate(handle: DbHandle): Promise<void> {
  if (handle.kind === "pglite") {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(handle.db as unknown as PgliteDatabase<Schema>, { migrationsFolder: MIGRATIONS_DIR });
  } else {
    const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
    const apply = () => run(handle.db as unknown as PostgresJsDatabase<Schema>, { migrationsFolder: MIGRATIONS_DIR });
    await (handle.withMigrationLock ? handle.withMigrationLock(apply) : apply());
  }
}
