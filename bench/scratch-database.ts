/**
 * A migrated scratch PostgreSQL database beside DATABASE_URL for the in-process benches (list-pipeline,
 * send-pipeline): created as `<prefix>_<pid>`, opened as the app's database handle, dropped at the end.
 */
import type { DbHandle } from "@/server/db/client";

export async function withScratchDatabase<T>(prefix: string, options: { max?: number }, work: (handle: DbHandle, url: string) => Promise<T>): Promise<T> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("set DATABASE_URL (PostgreSQL)");
  const { default: postgres } = await import("postgres");
  const { openPostgres, setDbHandle } = await import("@/server/db/client");
  const { migrate } = await import("@/server/db/migrate");
  const name = `${prefix}_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = await openPostgres(url.toString(), options);
  setDbHandle(handle);
  try {
    await migrate(handle);
    return await work(handle, url.toString());
  } finally {
    await handle.close();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}
