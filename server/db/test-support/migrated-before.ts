/**
 * For a migration's own test: a PGlite database migrated up to just before the migration whose tag starts with
 * `prefix` (from a copy of the migrations folder cut there), so the test can store rows as the build before did;
 * `migrateOn()` then applies the shipped migrations from there.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPglite, type DbHandle } from "@/server/db/client";
import { migrate, MIGRATIONS_DIR } from "@/server/db/migrate";

export async function migratedBefore(prefix: string): Promise<{ handle: DbHandle; position: number; migrateOn(): Promise<void>; close(): Promise<void> }> {
  const folder = mkdtempSync(path.join(tmpdir(), "foliosign-migrations-"));
  try {
    cpSync(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const position = journal.entries.findIndex((e) => e.tag.startsWith(prefix));
    if (position < 0) throw new Error(`no shipped migration starts with ${prefix}`);
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, position) }));
    const handle = await openPglite();
    await migrate(handle, folder);
    return {
      handle,
      position,
      migrateOn: () => migrate(handle),
      async close() {
        await handle.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(folder, { recursive: true, force: true });
    throw err;
  }
}
