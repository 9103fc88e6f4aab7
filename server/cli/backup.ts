/**
 * `npm run admin -- backup --out FILE` and `npm run admin -- restore --from FILE`: the embedded installation
 * (PGlite, and with the default `STORAGE=database` every uploaded and sealed file) in one file, and back.
 *
 * A backup is a gzipped tar of three things (its format and checks: backup-archive.ts): `foliosign-backup.json`
 * (the manifest: when, which migration, the rows of every table), `secrets.json` (NEXTAUTH_SECRET and
 * ENCRYPTION_KEY — without the latter the instance's sealing key, webhook secrets and signing links cannot be
 * read; `--without-secrets` leaves it out) and `pglite/`, the data directory as PGlite left it after a checkpoint. Both commands hold the directory's lock, so
 * `npm start` must be stopped (two processes on one PGlite directory corrupt it).
 *
 * Nothing is lost either way: a backup never overwrites a file and is written under another name until complete;
 * a restore refuses a target that holds a database, unpacks beside it, checks what it unpacked (the manifest, the
 * rows of every table, that the key decrypts the data) and only then renames it into place. PostgreSQL has its own
 * tools (pg_dump, point-in-time recovery): on it both commands refuse and say what to use.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { lockPgliteDir } from "@/server/boot";
import { openPglite } from "@/server/db/client";
import { backups } from "@/server/db/schema";
import {
  checkKey,
  configuredKey,
  DATA,
  FORMAT,
  HEX_KEY,
  MANIFEST,
  migrationOf,
  readManifest,
  readSecretsFile,
  Refusal,
  rowsOf,
  SECRETS,
  secretsToKeep,
  sizeOf,
  STAGE_PREFIX,
  unpack,
  VERSION,
  writeArchive,
  type TInstallation,
  type TManifest,
} from "./backup-archive";
import { UsageError, type TIo, type TOptions } from "./commands";

const isEmptyDir = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0;

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

const megabytes = (bytes: number) => (bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0);

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
