/**
 * Scheduled backups of the embedded database (`BACKUP_DIR`, README "Backups"): every `BACKUP_EVERY_HOURS` the
 * running server writes `foliosign-<time>.tgz` into `BACKUP_DIR` — the file `npm run admin -- backup` writes,
 * made without stopping anything (server/cli/backup-running.ts) — and keeps the newest `BACKUP_KEEP`.
 *
 * The schedule is the installation's own note of its backups: one is due when the newest noted backup (made by
 * this job or by the command) is older than the interval, so a restart neither skips one nor makes an extra one.
 * The work runs beside the worker's tick, not in it (its archive takes seconds per hundred megabytes; only the
 * copy of the data directory holds the database, briefly). A failure is logged, once, and tried again an hour
 * later; it loses nothing (the partial file is removed). On PostgreSQL the job does nothing: its own tools back
 * it up, and the start says so when BACKUP_DIR is set there.
 */
import { desc } from "drizzle-orm";
import { backups } from "@/server/db/schema";
import type { DbHandle } from "@/server/db/client";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { logger } from "@/server/lib/logger";
import { installationOf, refusalOf, type TInstallation } from "@/server/cli/backup-archive";
import { backupRunning } from "@/server/cli/backup-running";
import type { TJob } from "./worker";

const HOUR = 3_600_000;
/** How often the job reads whether a backup is due (not at every tick of the worker). */
export const BACKUP_CHECK_MS = 60_000;
/** After a failed backup, the next try waits this long (a failure repeats every hour at most, not every tick). */
export const BACKUP_RETRY_MS = HOUR;

export type TBackupSchedule = { dir: string; everyHours: number; keep: number; installation: TInstallation };

/** The schedule the configuration asks for, or null (BACKUP_DIR unset). */
export function configuredBackupSchedule(): TBackupSchedule | null {
  const e = env();
  if (!e.BACKUP_DIR) return null;
  return {
    dir: e.BACKUP_DIR,
    everyHours: e.BACKUP_EVERY_HOURS,
    keep: e.BACKUP_KEEP,
    installation: installationOf(e),
  };
}

export function createBackupJob(schedule: TBackupSchedule | null = configuredBackupSchedule()): TJob & { running(): Promise<void> | null } {
  let running: Promise<void> | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let stopped = false;

  const due = async (handle: DbHandle, at: Date): Promise<boolean> => {
    if (at.getTime() - failedAt < BACKUP_RETRY_MS) return false;
    // Once a minute at most; a clock set back looks again at once.
    if (at.getTime() - checkedAt < BACKUP_CHECK_MS && at.getTime() >= checkedAt) return false;
    checkedAt = at.getTime();
    const [last] = await handle.db.select({ madeAt: backups.madeAt }).from(backups).orderBy(desc(backups.madeAt)).limit(1);
    return !last || at.getTime() - last.madeAt.getTime() >= schedule!.everyHours * HOUR;
  };

  return {
    name: "backup",
    async run(handle) {
      if (!schedule || stopped || running || handle.kind !== "pglite" || !handle.copyDataDir) return;
      const at = now();
      if (!(await due(handle, at))) return;
      const log = logger().child({ job: "backup" });
      running = backupRunning(handle, schedule.installation, { dir: schedule.dir, keep: schedule.keep, at })
        .then(
          (made) => {
            log.info({ file: made.file, bytes: made.bytes, withSecrets: made.withSecrets, pruned: made.pruned }, "scheduled backup made");
          },
          (err: unknown) => {
            failedAt = now().getTime();
            const refusal = refusalOf(err);
            log.error(refusal ? { reason: refusal } : { err }, `scheduled backup failed; the next try is in an hour${refusal ? `: ${refusal}` : ""}`);
          },
        )
        .finally(() => {
          running = null;
        });
    },
    async stop() {
      stopped = true;
      await running;
    },
    running: () => running,
  };
}
