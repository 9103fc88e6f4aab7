/**
 * What a backup file is, for the command (backup.ts) and the scheduled backup (backup-running.ts) alike: a
 * gzipped tar of `foliosign-backup.json` (the manifest: when, which migration, the rows of every table),
 * `secrets.json` (NEXTAUTH_SECRET and ENCRYPTION_KEY, unless left out) and `pglite/`, the data directory as PGlite
 * left it after a checkpoint — how it is written and read back, and the checks both ends make (the migration, the
 * rows, that the key decrypts the data). A check that fails throws a Refusal: a message for the operator.
 */
import { createReadStream, createWriteStream, existsSync, lstatSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "drizzle-orm";
import { create as tarCreate, extract as tarExtract } from "tar";
import { queryRows, type DbHandle } from "@/server/db/client";
import { appliedMigrations, shippedMigrations } from "@/server/db/migrate";
import type { TEnv } from "@/server/env";
import { decryptSecretWith } from "@/server/lib/crypto";

export const FORMAT = "foliosign-backup";
export const VERSION = 1;
export const MANIFEST = "foliosign-backup.json";
export const SECRETS = "secrets.json";
export const DATA = "pglite";
/** A backup's working folder, beside its file (removed when it ends; a scheduled backup removes one a killed backup left). */
export const STAGE_PREFIX = ".foliosign-backup-";

/** Where the installation is, as the configuration says (admin.ts reads it from the environment). */
export type TInstallation = {
  dataDir: string;
  pgliteDir: string;
  databaseUrl?: string;
  storage: "database" | "s3";
  /** ENCRYPTION_KEY and NEXTAUTH_SECRET as set in the environment (they win over DATA_DIR/secrets.json). */
  env: { ENCRYPTION_KEY?: string; NEXTAUTH_SECRET?: string };
  /** The migrations this build knows (drizzle/meta/_journal.json): a newer backup is refused. */
  journal: readonly { tag: string; when: number }[];
};

/** Where the installation is, from the parsed configuration (the command line and the scheduled backups alike). */
export function installationOf(e: Pick<TEnv, "DATA_DIR" | "pgliteDir" | "DATABASE_URL" | "STORAGE">): TInstallation {
  return {
    dataDir: e.DATA_DIR,
    pgliteDir: e.pgliteDir,
    databaseUrl: e.DATABASE_URL,
    storage: e.STORAGE,
    env: { ENCRYPTION_KEY: process.env.ENCRYPTION_KEY || undefined, NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || undefined },
    journal: shippedMigrations(),
  };
}

export type TSecrets = { NEXTAUTH_SECRET?: string; ENCRYPTION_KEY?: string };

export type TManifest = {
  format: typeof FORMAT;
  version: typeof VERSION;
  createdAt: string;
  migration: { count: number; when: number; tag: string | null };
  storage: "database" | "s3";
  secrets: boolean;
  rows: Record<string, number>;
};

/** A refusal: printed as it is, exit code 1, nothing changed. */
export class Refusal extends Error {
  override name = "Refusal";
}

export const HEX_KEY = /^[0-9a-f]{64}$/i;

export function readSecretsFile(file: string): TSecrets | null {
  if (!existsSync(file)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    throw new Refusal(`${file} is not JSON: fix or move it first.`);
  }
  const s = (parsed ?? {}) as Record<string, unknown>;
  const pick = (k: string) => (typeof s[k] === "string" && s[k] !== "" ? (s[k] as string) : undefined);
  return { NEXTAUTH_SECRET: pick("NEXTAUTH_SECRET"), ENCRYPTION_KEY: pick("ENCRYPTION_KEY") };
}

/** Which ENCRYPTION_KEY this installation uses, and where it comes from (the environment wins, as at start). */
export function configuredKey(inst: TInstallation): { key?: string; from: string; file: TSecrets | null } {
  const file = readSecretsFile(path.join(inst.dataDir, SECRETS));
  if (inst.env.ENCRYPTION_KEY) return { key: inst.env.ENCRYPTION_KEY, from: "ENCRYPTION_KEY in the environment", file };
  if (file?.ENCRYPTION_KEY) return { key: file.ENCRYPTION_KEY, from: path.join(inst.dataDir, SECRETS), file };
  return { from: "nowhere", file };
}

/** The secrets a backup holds: the configured key, and the session secret from the environment or DATA_DIR. */
export function secretsToKeep(inst: TInstallation, secrets: ReturnType<typeof configuredKey>): TSecrets {
  return { ENCRYPTION_KEY: secrets.key, NEXTAUTH_SECRET: inst.env.NEXTAUTH_SECRET ?? secrets.file?.NEXTAUTH_SECRET };
}

export async function rowsOf(handle: DbHandle): Promise<Record<string, number>> {
  const tables = await queryRows<{ name: string }>(
    handle.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [r] = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from ${sql.identifier(name)}`);
    rows[name] = Number(r?.n ?? 0);
  }
  return rows;
}

export async function migrationOf(handle: DbHandle, journal: TInstallation["journal"]): Promise<TManifest["migration"]> {
  let applied: { count: number; last: number | null };
  try {
    applied = await appliedMigrations(handle.db);
  } catch {
    throw new Refusal("This database was never set up by Foliosign (no migrations recorded): nothing to back up.");
  }
  const when = applied.last ?? 0;
  return { count: applied.count, when, tag: journal.find((j) => j.when === when)?.tag ?? null };
}

/** One encrypted value of the database (the instance's sealing key, a webhook secret, a signing link), if any. */
export async function sampleCiphertext(handle: DbHandle): Promise<{ what: string; value: string } | null> {
  const probes = [
    { what: "the instance sealing key", query: sql`select encrypted_private_key as value from signing_keys limit 1` },
    { what: "a webhook endpoint's secret", query: sql`select secret_encrypted as value from webhook_endpoints limit 1` },
  ];
  for (const p of probes) {
    const [row] = await queryRows<{ value: string }>(handle.db, p.query);
    if (row?.value) return { what: p.what, value: row.value };
  }
  return null;
}

/** Refuses when `key` does not decrypt what the database holds (nothing encrypted yet: nothing to check). */
export async function checkKey(handle: DbHandle, key: string, refusal: (what: string) => string): Promise<void> {
  const sample = await sampleCiphertext(handle);
  if (!sample) return;
  try {
    decryptSecretWith(Buffer.from(key, "hex"), sample.value);
  } catch {
    throw new Refusal(refusal(sample.what));
  }
}

/** Bytes of the files under `dir` (links not followed). */
export function sizeOf(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const st = lstatSync(path.join(dir, String(name)));
    if (st.isFile()) bytes += st.size;
  }
  return bytes;
}

/** Passes the archive through, reporting how much of it has gone by at most every `everyMs`. */
export function progress(total: number, report: (done: number) => void, everyMs: number): Transform {
  let done = 0;
  let last = Date.now();
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length;
      if (Date.now() - last >= everyMs) {
        last = Date.now();
        report(Math.min(done, total));
      }
      callback(null, chunk);
    },
  });
}

/**
 * Writes the archive of `stage` (which holds the database as `pglite/`, a folder or a link to one) with its
 * manifest and, unless null, the secrets: gzipped tar under `partial`, readable by the owner only, renamed to
 * `target` once whole (never over an existing file: `partial` is created exclusively, and `target` was checked).
 */
export async function writeArchive(
  stage: string,
  manifest: TManifest,
  secrets: TSecrets | null,
  partial: string,
  target: string,
  progressOf: { total: number; report: (done: number) => void; everyMs: number },
): Promise<void> {
  writeFileSync(path.join(stage, MANIFEST), JSON.stringify(manifest, null, 2));
  const entries = [MANIFEST, DATA];
  if (secrets) {
    writeFileSync(path.join(stage, SECRETS), JSON.stringify(secrets, null, 2), { mode: 0o600 });
    entries.splice(1, 0, SECRETS);
  }
  await pipeline(
    tarCreate({ cwd: stage, follow: true, portable: true }, entries),
    progress(progressOf.total, progressOf.report, progressOf.everyMs),
    createGzip(),
    createWriteStream(partial, { mode: 0o600, flags: "wx" }),
  );
  if (existsSync(target)) throw new Refusal(`${target} exists: a backup never overwrites a file.`);
  renameSync(partial, target);
}

/** Unpacks only what a backup holds: the manifest, the secrets and files and folders under pglite/. */
export async function unpack(source: string, stage: string, report: (done: number, total: number) => void, everyMs: number): Promise<void> {
  const unexpected: string[] = [];
  const total = statSync(source).size;
  try {
    const unpacker = tarExtract({
      cwd: stage,
      strict: true,
      preservePaths: false,
      filter: (p, entry) => {
        const name = p.replace(/^\.\//, "");
        const type = "type" in entry ? entry.type : undefined;
        const ok =
          (type === "File" && (name === MANIFEST || name === SECRETS || name.startsWith(`${DATA}/`))) ||
          (type === "Directory" && (name === `${DATA}/` || name === DATA || name.startsWith(`${DATA}/`)));
        if (!ok) unexpected.push(name);
        return ok;
      },
    });
    await pipeline(
      createReadStream(source),
      progress(total, (done) => report(done, total), everyMs),
      unpacker,
    );
  } catch (err) {
    throw new Refusal(`${source} is not a readable backup (${(err as Error).message}).`);
  }
  if (unexpected.length > 0) throw new Refusal(`${source} holds what a Foliosign backup does not (${unexpected.slice(0, 3).join(", ")}): refused.`);
}

export function readManifest(file: string, journal: TInstallation["journal"]): TManifest {
  if (!existsSync(file)) throw new Refusal("The file has no foliosign-backup.json: not a Foliosign backup.");
  let m: Partial<TManifest>;
  try {
    m = JSON.parse(readFileSync(file, "utf8")) as Partial<TManifest>;
  } catch {
    throw new Refusal("Its foliosign-backup.json is not JSON: the file is damaged.");
  }
  if (m.format !== FORMAT || typeof m.rows !== "object" || !m.migration || typeof m.migration.when !== "number") {
    throw new Refusal("Its foliosign-backup.json is not a Foliosign backup manifest.");
  }
  if (m.version !== VERSION) throw new Refusal(`The backup's format version ${String(m.version)} is not one this version of Foliosign reads (${VERSION}).`);
  const latest = journal.at(-1)?.when ?? 0;
  if (m.migration.when > latest) {
    throw new Refusal(
      `The backup was made by a newer version of Foliosign (migration ${m.migration.tag ?? m.migration.when}): upgrade this installation first.`,
    );
  }
  return m as TManifest;
}

/** Why a backup was refused (a message for the operator), or null when the error is not a refusal. */
export function refusalOf(err: unknown): string | null {
  return err instanceof Refusal ? err.message : null;
}
