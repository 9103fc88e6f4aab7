import { bigint, boolean, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * The backups `npm run admin -- backup` made of this (embedded, PGlite) installation, one row each, written after
 * the file is complete (server/cli/backup.ts): the Readiness page's Backups check reads the newest. A backup does
 * not contain its own row; a restored installation shows the backups made before the one it came from.
 */
export const backups = pgTable("backups", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  madeAt: ts("made_at").notNull(),
  /** The file's name (not its folder). */
  file: text("file").notNull(),
  bytes: bigint("bytes", { mode: "number" }).notNull(),
  /** Whether the file holds ENCRYPTION_KEY (`--without-secrets` leaves it out). */
  withSecrets: boolean("with_secrets").notNull(),
});

export type TBackupRow = typeof backups.$inferSelect;
