/**
 * `useTestDb()` in a test file: a database of its own for the file (restored from the run's migrated
 * snapshot, or copied from the PostgreSQL template), installed as the process database so route handlers
 * use it, and emptied before every test.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { openPglite, openPostgres, queryRows, setDbHandle, type Db, type DbHandle } from "../db/client";
import { resetRateLimits } from "../http/steps/rate-limit";
import { setClock } from "../lib/clock";
import { databaseUrl } from "./global-setup";

export type TTestDb = {
  readonly db: Db;
  readonly handle: DbHandle;
  /**
   * The PostgreSQL URL of this file's database, for a test that needs a connection of its own beside the
   * handle's (another worker, a lock holder). Only on PostgreSQL: such tests skip on PGlite.
   */
  readonly url: string;
};

async function truncateAll(db: Db): Promise<void> {
  const tables = await queryRows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public'`);
  if (tables.length === 0) return;
  const list = tables.map((t) => `"${t.tablename}"`).join(", ");
  await db.execute(sql.raw(`truncate ${list} restart identity cascade`));
}

export function useTestDb(): TTestDb {
  let handle: DbHandle | undefined;
  let dropName: string | undefined;
  let url: string | undefined;
  const base = process.env.DATABASE_URL;

  beforeAll(async () => {
    const template = inject("pgTemplate");
    if (template && base) {
      const name = `${template}_${randomBytes(4).toString("hex")}`;
      const admin = postgres(base, { max: 1, onnotice: () => {} });
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            await admin.unsafe(`create database "${name}" template "${template}"`);
            break;
          } catch (err) {
            if (attempt >= 20) throw err; // the template is busy while another file copies it
            await new Promise((r) => setTimeout(r, 100 + attempt * 50));
          }
        }
      } finally {
        await admin.end();
      }
      dropName = name;
      url = databaseUrl(base, name);
      handle = await openPostgres(url, { max: 5 });
    } else {
      const snapshot = readFileSync(inject("pgliteSnapshot"));
      handle = await openPglite({ loadDataDir: new Blob([snapshot]) });
    }
    setDbHandle(handle);
  });

  beforeEach(async () => {
    setClock(undefined);
    resetRateLimits();
    await truncateAll(handle!.db);
  });

  afterAll(async () => {
    setDbHandle(undefined);
    setClock(undefined);
    await handle?.close();
    if (dropName && base) {
      const admin = postgres(base, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists "${dropName}" with (force)`).finally(() => admin.end());
    }
  });

  return {
    get db() {
      if (!handle) throw new Error("useTestDb: the database is opened in beforeAll");
      return handle.db;
    },
    get handle() {
      if (!handle) throw new Error("useTestDb: the database is opened in beforeAll");
      return handle;
    },
    get url() {
      if (!url) throw new Error("useTestDb: url is the PostgreSQL database's (this file runs on PGlite)");
      return url;
    },
  };
}
