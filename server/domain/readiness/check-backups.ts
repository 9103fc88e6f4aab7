import { desc } from "drizzle-orm";
import { backups } from "@/server/db/schema";
import { check, type TReadinessCheck, type TReadinessContext } from "./types";

const TITLE = "Backups";
/** A backup older than this is a warning. */
export const BACKUP_MAX_AGE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

const ago = (days: number) => (days < 1 ? "today" : days < 2 ? "1 day ago" : `${Math.floor(days)} days ago`);

/**
 * When this installation was last backed up. The embedded database (PGlite) is backed up by `npm run admin --
 * backup`, or by the server itself while it runs when BACKUP_DIR is set (server/jobs/backup-job.ts); both note
 * each backup they complete (server/cli/backup.ts): none, or none for a week, is a warning.
 * PostgreSQL is backed up with its own tools, which Foliosign cannot see: the check says what to keep.
 */
export async function checkBackups(ctx: TReadinessContext): Promise<TReadinessCheck> {
  const e = ctx.env;
  const bucket = "the S3 bucket's files (versioning or replication)";
  const s3 = e.STORAGE === "s3";
  if (e.DATABASE_URL) {
    return check(
      "backups",
      TITLE,
      "ok",
      "PostgreSQL is backed up with its own tools (pg_dump, snapshots, point-in-time recovery), which Foliosign does not see.",
      `Keep ENCRYPTION_KEY and NEXTAUTH_SECRET with the database's backups${s3 ? `, and ${bucket}` : ""}: without the key a restored database cannot seal, deliver webhooks or open signing links.`,
      [{ label: "Database", value: "PostgreSQL (DATABASE_URL)" }],
    );
  }
  const andBucket = s3 ? `, and back up ${bucket}: they are not in the files` : "";
  const scheduled = e.BACKUP_DIR ? `every ${e.BACKUP_EVERY_HOURS} hours into ${e.BACKUP_DIR}, the newest ${e.BACKUP_KEEP} kept` : null;
  const action = scheduled
    ? `Scheduled backups are on (${scheduled}) and none is recent: the server's log says why (\`scheduled backup failed\`); they need the worker (RUN_WORKER). Copy ${e.BACKUP_DIR} to another machine${andBucket}.`
    : `Set BACKUP_DIR for backups the server makes while it runs, or stop it and run \`npm run admin -- backup --out FILE\` (README, Backups); keep the files on another machine${andBucket}.`;
  if (!ctx.db) return check("backups", TITLE, "warn", "Not checked: the database is not ready (see Database).", null);
  const [last] = await ctx.db.select().from(backups).orderBy(desc(backups.madeAt)).limit(1);
  const schedule = scheduled ? [{ label: "Scheduled", value: scheduled }] : [];
  if (!last)
    return check("backups", TITLE, "warn", "No backup of this installation has been made.", action, [
      { label: "Database", value: "embedded (PGlite)" },
      ...schedule,
    ]);
  const days = (ctx.now().getTime() - last.madeAt.getTime()) / DAY_MS;
  const facts = [
    { label: "Last backup", value: `${last.madeAt.toISOString()} (${ago(days)})` },
    { label: "File", value: last.file },
    { label: "Size", value: `${(last.bytes / 1_000_000).toFixed(1)} MB` },
    { label: "Secrets", value: last.withSecrets ? "in the file (ENCRYPTION_KEY, NEXTAUTH_SECRET)" : "not in the file: keep ENCRYPTION_KEY yourself" },
    ...schedule,
  ];
  if (days > BACKUP_MAX_AGE_DAYS) {
    return check(
      "backups",
      TITLE,
      "warn",
      `The last backup is ${Math.floor(days)} days old: what changed since would be lost with this machine.`,
      action,
      facts,
    );
  }
  return check("backups", TITLE, "ok", `The last backup was made ${ago(days)}.`, null, facts);
}
