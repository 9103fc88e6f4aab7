/**
 * The scheduled backups' file (server/jobs/backup-job.ts): a backup of the embedded database while it runs,
 * written as backup-archive.ts describes, so `npm run admin -- restore` (and `restore --check`) reads it as it
 * reads the command's.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openPglite, type DbHandle } from "@/server/db/client";
import { backups } from "@/server/db/schema";
import {
  checkKey,
  configuredKey,
  DATA,
  FORMAT,
  migrationOf,
  Refusal,
  rowsOf,
  secretsToKeep,
  sizeOf,
  STAGE_PREFIX,
  VERSION,
  writeArchive,
  type TInstallation,
  type TManifest,
} from "./backup-archive";

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
