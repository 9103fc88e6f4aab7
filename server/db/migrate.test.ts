/**
 * Protects scale-out starts on PostgreSQL: every replica and worker migrates at start, so several starting
 * together must not race on the same DDL (one would crash with a duplicate-object error). Runs only when
 * DATABASE_URL is set (CI's PostgreSQL tier); it creates and drops its own empty database.
 */
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { databaseUrl } from "@/server/test/global-setup";
import { openPostgres } from "./client";
import { migrate } from "./migrate";

const base = process.env.DATABASE_URL;
const name = `foliosign_migrate_${Date.now().toString(36)}_${process.pid}`;

describe.skipIf(!base)("migrations on PostgreSQL", () => {
  const admin = base ? postgres(base, { max: 1, onnotice: () => {} }) : undefined;
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });

  it("lets four processes' worth of handles migrate one empty database at once", async () => {
    await admin!.unsafe(`create database "${name}"`);
    const handles = await Promise.all([1, 2, 3, 4].map(() => openPostgres(databaseUrl(base!, name), { max: 2 })));
    try {
      await Promise.all(handles.map((h) => migrate(h)));
      const check = postgres(databaseUrl(base!, name), { max: 1, onnotice: () => {} });
      const [row] = await check<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await check.end();
      const journal = (await import("@/drizzle/meta/_journal.json")).default as { entries: unknown[] };
      expect(row?.n).toBe(journal.entries.length);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });
});
