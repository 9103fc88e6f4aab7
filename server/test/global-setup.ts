/**
 * Once per vitest run: a migrated database that every test file copies.
 * - PGlite (default): migrate in memory, dump the data directory to a tarball; each file restores it (~0.5 s).
 * - PostgreSQL (DATABASE_URL set): DATABASE_URL is only the connection used to create databases. The run
 *   creates a fresh, migrated template database beside it; each file gets its own copy (CREATE DATABASE …
 *   TEMPLATE); all of them are dropped at the end of the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../db/client";
import { migrate } from "../db/migrate";

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    pgTemplate: string;
    pgliteSnapshot: string;
  }
}

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const template = `foliosign_test_${Date.now().toString(36)}_${process.pid}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${template}"`);
    const handle = await openPostgres(databaseUrl(base, template), { max: 1 });
    await migrate(handle);
    await handle.close();
    project.provide("pgTemplate", template);
    project.provide("pgliteSnapshot", "");
    return async () => {
      const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${template + "%"}`;
      for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-test-"));
  const handle = await openPglite();
  await migrate(handle);
  const blob = await handle.dumpDataDir!();
  await handle.close();
  const file = path.join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide("pgliteSnapshot", file);
  project.provide("pgTemplate", "");
  return async () => rmSync(dir, { recursive: true, force: true });
}
