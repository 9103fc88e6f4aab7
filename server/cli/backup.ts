/**
 * `npm run admin -- backup --out FILE` and `npm run admin -- restore --from FILE`: the embedded installation
 * (PGlite, and with the default `STORAGE=database` every uploaded and sealed file) in one file, and back.
 *
 * A backup is a gzipped tar of three things: `foliosign-backup.json` (the manifest: when, which migration, the
 * rows of every table), `secrets.json` (NEXTAUTH_SECRET and ENCRYPTION_KEY — without the latter the instance's
 * sealing key, webhook secrets and signing links cannot be read; `--without-secrets` leaves it out) and
 * `pglite/`, the data directory as PGlite left it after a checkpoint. Both commands hold the directory's lock, so
 * `npm start` must be stopped (two processes on one PGlite directory corrupt it).
 *
 * Nothing is lost either way: a backup never overwrites a file and is written under another name until complete;
 * a restore refuses a target that holds a database, unpacks beside it, checks what it unpacked (the manifest, the
 * rows of every table, that the key decrypts the data) and only then renames it into place. PostgreSQL has its own
 * tools (pg_dump, point-in-time recovery): on it both commands refuse and say what to use.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { create as tarCreate, extract as tarExtract } from "tar";
import { lockPgliteDir } from "@/server/boot";
import { openPglite, queryRows, type DbHandle } from "@/server/db/client";
import { appliedMigrations, shippedMigrations } from "@/server/db/migrate";
import type { TEnv } from "@/server/env";
import { backups } from "@/server/db/schema";
import { decryptSecretWith } from "@/server/lib/crypto";
import { sql } from "drizzle-orm";
import { UsageError, type TIo, type TOptions } from "./commands";

const FORMAT = "foliosign-backup";
const VERSION = 1;
const MANIFEST = "foliosign-backup.json";
const SECRETS = "secrets.json";
const DATA = "pglite";
/** A backup's working folder, beside its file (removed when it ends; a scheduled backup removes one a killed backup left). */
const STAGE_PREFIX = ".foliosign-backup-";

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

type TSecrets = { NEXTAUTH_SECRET?: string; ENCRYPTION_KEY?: string };

type TManifest = {
  format: typeof FORMAT;
  version: typeof VERSION;
  createdAt: string;
  migration: { count: number; when: number; tag: string | null };
  storage: "database" | "s3";
  secrets: boolean;
  rows: Record<string, number>;
};

/** A refusal: printed as it is, exit code 1, nothing changed. */
class Refusal extends Error {
  override name = "Refusal";
}

const HEX_KEY = /^[0-9a-f]{64}$/i;

function readSecretsFile(file: string): TSecrets | null {
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
function configuredKey(inst: TInstallation): { key?: string; from: string; file: TSecrets | null } {
  const file = readSecretsFile(path.join(inst.dataDir, SECRETS));
  if (inst.env.ENCRYPTION_KEY) return { key: inst.env.ENCRYPTION_KEY, from: "ENCRYPTION_KEY in the environment", file };
  if (file?.ENCRYPTION_KEY) return { key: file.ENCRYPTION_KEY, from: path.join(inst.dataDir, SECRETS), file };
  return { from: "nowhere", file };
}

/** The secrets a backup holds: the configured key, and the session secret from the environment or DATA_DIR. */
function secretsToKeep(inst: TInstallation, secrets: ReturnType<typeof configuredKey>): TSecrets {
  return { ENCRYPTION_KEY: secrets.key, NEXTAUTH_SECRET: inst.env.NEXTAUTH_SECRET ?? secrets.file?.NEXTAUTH_SECRET };
}

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

async function rowsOf(handle: DbHandle): Promise<Record<string, number>> {
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

async function migrationOf(handle: DbHandle, journal: TInstallation["journal"]): Promise<TManifest["migration"]> {
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
async function sampleCiphertext(handle: DbHandle): Promise<{ what: string; value: string } | null> {
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
async function checkKey(handle: DbHandle, key: string, refusal: (what: string) => string): Promise<void> {
  const sample = await sampleCiphertext(handle);
  if (!sample) return;
  try {
    decryptSecretWith(Buffer.from(key, "hex"), sample.value);
  } catch {
    throw new Refusal(refusal(sample.what));
  }
}

const count = (rows: Record<string, number>, table: string) => (rows[table] ?? 0).toLocaleString("en");
const summary = (rows: Record<string, number>) =>
  `${count(rows, "organisations")} organisation(s), ${count(rows, "packages")} package(s), ${count(rows, "documents")} document(s), ${count(rows, "stored_files")} stored file(s)`;

async function withRefusals(io: TIo, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Refusal) {
      io.err(`Refused: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

/** Bytes of the files under `dir` (links not followed). */
function sizeOf(dir: string): number {
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const st = lstatSync(path.join(dir, String(name)));
    if (st.isFile()) bytes += st.size;
  }
  return bytes;
}

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0);

/** Passes the archive through, reporting how much of it has gone by at most every `everyMs`. */
function progress(total: number, report: (done: number) => void, everyMs: number): Transform {
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
async function writeArchive(
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

/** Notes a completed backup in the installation's own database (the Readiness page's Backups check reads it). */
async function noteBackup(pgliteDir: string, row: typeof backups.$inferInsert): Promise<void> {
  const handle = await openPglite({ dataDir: pgliteDir });
  try {
    await handle.db.insert(backups).values(row);
  } finally {
    await handle.close();
  }
}

/** `progressEveryMs`: how often a long backup says how far it is (tests make it report at every piece). */
export async function backupCommand(inst: TInstallation, opts: TOptions, io: TIo, { progressEveryMs = 5_000 } = {}): Promise<number> {
  const out = opts.out;
  if (!out) throw new UsageError("--out is required");
  return withRefusals(io, async () => {
    if (inst.databaseUrl) {
      throw new Refusal(
        'DATABASE_URL is set: back PostgreSQL up with its own tools — `pg_dump --format=custom --file=foliosign.dump "$DATABASE_URL"` ' +
          "(or your provider's snapshots / point-in-time recovery) — and keep ENCRYPTION_KEY and NEXTAUTH_SECRET with it" +
          (inst.storage === "s3" ? ", and the S3 bucket's files (versioning or replication)." : "."),
      );
    }
    const target = path.resolve(out);
    if (existsSync(target)) throw new Refusal(`${target} exists: a backup never overwrites a file. Choose another name.`);
    if (!existsSync(path.dirname(target))) throw new Refusal(`The folder ${path.dirname(target)} does not exist.`);
    if (isEmptyDir(inst.pgliteDir)) throw new Refusal(`There is no database at ${inst.pgliteDir} (PGLITE_DIR): nothing to back up.`);

    const withSecrets = opts["without-secrets"] !== "true";
    const release = lockPgliteDir(inst.pgliteDir);
    const partial = `${target}.partial-${process.pid}`;
    const stage = mkdtempSync(path.join(path.dirname(target), STAGE_PREFIX));
    try {
      const secrets = configuredKey(inst);
      const handle = await openPglite({ dataDir: inst.pgliteDir });
      let manifest: TManifest;
      try {
        const migration = await migrationOf(handle, inst.journal);
        if (withSecrets) {
          if (!secrets.key) {
            throw new Refusal(
              `No ENCRYPTION_KEY is configured (neither in the environment nor in ${path.join(inst.dataDir, SECRETS)}): set the one this ` +
                "installation runs with, or back up with --without-secrets and keep the key yourself.",
            );
          }
          await checkKey(
            handle,
            secrets.key,
            (what) =>
              `The ENCRYPTION_KEY from ${secrets.from} does not decrypt ${what}: this backup could not be restored. Set the key this installation runs with.`,
          );
        }
        const rows = await rowsOf(handle);
        await handle.db.execute(sql`checkpoint`);
        manifest = { format: FORMAT, version: VERSION, createdAt: new Date().toISOString(), migration, storage: inst.storage, secrets: withSecrets, rows };
      } finally {
        await handle.close();
      }
      const kept = withSecrets ? secretsToKeep(inst, secrets) : null;
      // The data directory enters the archive as `pglite/` through a link (`follow`), whatever its own name.
      symlinkSync(path.resolve(inst.pgliteDir), path.join(stage, DATA), "dir");
      const total = sizeOf(inst.pgliteDir);
      const started = Date.now();
      await writeArchive(stage, manifest, kept, partial, target, {
        total,
        report: (done) => io.err(`Backing up… ${megabytes(done)} of ${megabytes(total)} MB`),
        everyMs: progressEveryMs,
      });
      const bytes = statSync(target).size;
      // The backup is complete: the installation keeps a note of it for the Readiness page. A failure to note it
      // loses nothing (the file is whole); it is said, and the backup stands.
      const noted = await noteBackup(inst.pgliteDir, { madeAt: new Date(manifest.createdAt), file: path.basename(target), bytes, withSecrets }).then(
        () => null,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      io.err(`Backed up ${summary(manifest.rows)} (migration ${manifest.migration.tag ?? manifest.migration.when}): ${megabytes(total)} MB in ${seconds} s.`);
      if (withSecrets) io.err("The file holds ENCRYPTION_KEY: keep it as you keep a password (it was written readable by you only).");
      else io.err("Without secrets: keep ENCRYPTION_KEY yourself — without it this backup's sealing key, webhook secrets and links cannot be read.");
      if (inst.storage === "s3") io.err("STORAGE=s3: the files are in the bucket, not in this backup — back the bucket up too (versioning or replication).");
      if (noted) io.err(`The backup is complete, but the installation could not note it for the Readiness page: ${noted}`);
      io.out(target);
      return 0;
    } finally {
      rmSync(stage, { recursive: true, force: true });
      rmSync(partial, { force: true });
      release();
    }
  });
}

export async function restoreCommand(inst: TInstallation, opts: TOptions, io: TIo, { progressEveryMs = 5_000 } = {}): Promise<number> {
  const from = opts.from;
  if (!from) throw new UsageError("--from is required");
  // --check: everything a restore checks, in a scratch folder, and nothing installed (no PGLITE_DIR, no lock needed).
  const check = opts.check === "true";
  return withRefusals(io, async () => {
    if (inst.databaseUrl && !check) {
      throw new Refusal(
        'DATABASE_URL is set: restore PostgreSQL with its own tools (`pg_restore --dbname "$DATABASE_URL" foliosign.dump`). This command restores the embedded database.',
      );
    }
    const source = path.resolve(from);
    if (!existsSync(source)) throw new Refusal(`${source} does not exist.`);
    if (!check && !isEmptyDir(inst.pgliteDir)) {
      throw new Refusal(
        `${inst.pgliteDir} (PGLITE_DIR) already holds a database: a restore never overwrites one. Move it away (or set PGLITE_DIR to an empty folder) first.`,
      );
    }
    const release = check ? () => {} : lockPgliteDir(inst.pgliteDir);
    if (!check) mkdirSync(path.dirname(inst.pgliteDir), { recursive: true });
    const stage = mkdtempSync(check ? path.join(os.tmpdir(), "foliosign-backup-check-") : `${inst.pgliteDir}.restoring-`);
    try {
      await unpack(source, stage, (done, total) => io.err(`Unpacking… ${megabytes(done)} of ${megabytes(total)} MB`), progressEveryMs);
      const manifest = readManifest(path.join(stage, MANIFEST), inst.journal);
      if (!existsSync(path.join(stage, DATA))) throw new Refusal("The backup holds no database (pglite/): not a Foliosign backup.");
      const archived = manifest.secrets ? readSecretsFile(path.join(stage, SECRETS)) : null;
      if (manifest.secrets && !archived?.ENCRYPTION_KEY)
        throw new Refusal("The backup's secrets.json is missing or has no ENCRYPTION_KEY: the file is damaged.");
      if (archived?.ENCRYPTION_KEY && !HEX_KEY.test(archived.ENCRYPTION_KEY))
        throw new Refusal("The backup's ENCRYPTION_KEY is not 64 hex characters: the file is damaged.");

      const configured = configuredKey(inst);
      // A check trusts the backup's own key first: it asks whether the file can be restored, not whether here.
      const key = check ? (archived?.ENCRYPTION_KEY ?? configured.key) : (configured.key ?? archived?.ENCRYPTION_KEY);
      const keyFrom = check && archived?.ENCRYPTION_KEY ? "the backup" : configured.from;
      if (!key) {
        throw new Refusal(
          "This backup was made --without-secrets and no ENCRYPTION_KEY is configured: set ENCRYPTION_KEY (and NEXTAUTH_SECRET) to the installation's own values first.",
        );
      }
      const otherKey = Boolean(configured.key && archived?.ENCRYPTION_KEY && configured.key !== archived.ENCRYPTION_KEY);
      if (otherKey && !check) {
        throw new Refusal(
          `The ENCRYPTION_KEY from ${configured.from} is not the one this backup's data was encrypted with. ` +
            "Unset it (or move that secrets.json away) to use the backup's key, or set the backup's key there.",
        );
      }

      const handle = await openPglite({ dataDir: path.join(stage, DATA) });
      try {
        const rows = await rowsOf(handle);
        const differing = Object.keys({ ...manifest.rows, ...rows }).filter((t) => rows[t] !== manifest.rows[t]);
        if (differing.length > 0) {
          throw new Refusal(`The unpacked database does not match the backup's manifest (${differing.slice(0, 3).join(", ")}): the file is damaged.`);
        }
        await checkKey(
          handle,
          key,
          (what) => `The ENCRYPTION_KEY from ${keyFrom} does not decrypt ${what} of this backup: set the key of the installation it came from.`,
        );
      } finally {
        await handle.close();
      }

      if (check) {
        io.err(
          `The backup is good: ${summary(manifest.rows)}, made ${manifest.createdAt} (migration ${manifest.migration.tag ?? manifest.migration.when}); ` +
            `every table's rows match its manifest and the ENCRYPTION_KEY from ${keyFrom} decrypts its data.`,
        );
        if (otherKey) io.err(`This installation's ENCRYPTION_KEY (from ${configured.from}) is another one: a restore here would be refused.`);
        if (manifest.storage === "s3") io.err("It was made with STORAGE=s3: its files are in the bucket, not in the backup.");
        return 0;
      }
      if (existsSync(inst.pgliteDir)) rmSync(inst.pgliteDir, { recursive: true }); // an empty folder (checked above)
      renameSync(path.join(stage, DATA), inst.pgliteDir);
      const secretsFile = path.join(inst.dataDir, SECRETS);
      if (archived && !configured.file) {
        mkdirSync(inst.dataDir, { recursive: true });
        writeFileSync(secretsFile, JSON.stringify(archived, null, 2), { mode: 0o600, flag: "wx" });
      }
      io.err(`Restored ${summary(manifest.rows)} from a backup of ${manifest.createdAt} into ${inst.pgliteDir}.`);
      if (archived && !configured.file) io.err(`Its secrets are in ${secretsFile}.`);
      const latest = inst.journal.at(-1);
      if (latest && manifest.migration.when < latest.when) io.err("The backup predates this version's last migration: `npm start` applies the rest.");
      if (manifest.storage === "s3") io.err("It was made with STORAGE=s3: its files are in the bucket, not in the backup. Point S3_* at that bucket.");
      return 0;
    } finally {
      rmSync(stage, { recursive: true, force: true });
      release();
    }
  });
}

/** Unpacks only what a backup holds: the manifest, the secrets and files and folders under pglite/. */
async function unpack(source: string, stage: string, report: (done: number, total: number) => void, everyMs: number): Promise<void> {
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

function readManifest(file: string, journal: TInstallation["journal"]): TManifest {
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

export type TRunningBackup = { file: string; bytes: number; rows: Record<string, number>; withSecrets: boolean; pruned: string[] };

/** Scheduled backups' file names: the time they were made, so they sort oldest first; only such files are pruned. */
const SCHEDULED = /^foliosign-\d{8}T\d{6}Z\.tgz$/;
/** A scheduled backup's file while it is written (`<file>.partial-<pid>`). */
const SCHEDULED_PARTIAL = /^foliosign-\d{8}T\d{6}Z\.tgz\.partial-\d+$/;
const scheduledName = (at: Date) =>
  `foliosign-${at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")}.tgz`;

/**
 * A backup of the embedded database WHILE it runs (the scheduled backups, server/jobs/backup-job.ts), into `dir`
 * as `foliosign-<time>.tgz`: the same file `backup` writes, so `restore` (and `restore --check`) read it alike.
 * The data directory is copied with every query of this process held off (`copyDataDir`: a checkpoint, then a
 * few seconds of copying for hundreds of megabytes); everything after runs beside the live database: the copy is
 * opened on its own (which is the check that it opens), its rows counted for the manifest and its data decrypted
 * with the configured key (else refused: a backup that could not be restored is not a backup), then archived and
 * noted in the live database. The secrets are in the file when a key is configured (the server always has one).
 * Then only the newest `keep` scheduled backups in `dir` stay: older ones are deleted (other files never are).
 */
export async function backupRunning(live: DbHandle, inst: TInstallation, opts: { dir: string; keep: number; at?: Date }): Promise<TRunningBackup> {
  if (!live.copyDataDir) throw new Refusal("Only the embedded database (PGlite, on a directory) is backed up while it runs.");
  const at = opts.at ?? new Date();
  const dir = path.resolve(opts.dir);
  const data = path.resolve(inst.pgliteDir);
  if (dir === data || dir.startsWith(data + path.sep)) {
    throw new Refusal(`The backup folder ${dir} is inside the database's folder ${data} (PGLITE_DIR): choose a folder outside it.`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = scheduledName(at);
  const target = path.join(dir, file);
  if (existsSync(target)) throw new Refusal(`${target} exists: a backup never overwrites a file.`);
  // What a backup killed midway left here (its copy, its unfinished file): only this process can be making one
  // (the PGlite directory's lock), so whatever is left is stale.
  for (const name of readdirSync(dir)) {
    if (name.startsWith(STAGE_PREFIX) || SCHEDULED_PARTIAL.test(name)) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
  const partial = `${target}.partial-${process.pid}`;
  const stage = mkdtempSync(path.join(dir, STAGE_PREFIX));
  try {
    await live.copyDataDir(path.join(stage, DATA));
    const secrets = configuredKey(inst);
    const copy = await openPglite({ dataDir: path.join(stage, DATA) });
    let manifest: TManifest;
    try {
      const migration = await migrationOf(copy, inst.journal);
      if (secrets.key) {
        await checkKey(copy, secrets.key, (what) => `The ENCRYPTION_KEY from ${secrets.from} does not decrypt ${what}: this backup could not be restored.`);
      }
      const rows = await rowsOf(copy);
      await copy.db.execute(sql`checkpoint`);
      manifest = { format: FORMAT, version: VERSION, createdAt: at.toISOString(), migration, storage: inst.storage, secrets: Boolean(secrets.key), rows };
    } finally {
      await copy.close();
    }
    const kept = secrets.key ? secretsToKeep(inst, secrets) : null;
    const total = sizeOf(path.join(stage, DATA));
    await writeArchive(stage, manifest, kept, partial, target, { total, report: () => {}, everyMs: Number.POSITIVE_INFINITY });
    const bytes = statSync(target).size;
    await live.db.insert(backups).values({ madeAt: at, file, bytes, withSecrets: manifest.secrets });
    const older = readdirSync(dir)
      .filter((name) => SCHEDULED.test(name))
      .sort()
      .reverse()
      .slice(Math.max(opts.keep, 1));
    for (const name of older) rmSync(path.join(dir, name), { force: true });
    return { file: target, bytes, rows: manifest.rows, withSecrets: manifest.secrets, pruned: older };
  } finally {
    rmSync(stage, { recursive: true, force: true });
    rmSync(partial, { force: true });
  }
}

/** Why a backup was refused (a message for the operator), or null when the error is not a refusal. */
export function refusalOf(err: unknown): string | null {
  return err instanceof Refusal ? err.message : null;
}
