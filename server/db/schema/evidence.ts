/**
 * Evidence that lasts (issue 20; server/domain/sealing/evidence/): what time-stamping reached for a sealed
 * package, the queue state of its upgrade and renewal jobs, and every earlier version of its sealed files.
 */
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { TEvidenceLevelName } from "@/common/evidence";
import { createdAt, id, ts, updatedAt } from "./columns";
import { tenantColumns } from "./organisations";
import { packages } from "./packages";
import { sealedFiles } from "./sealed-files";

/**
 * One row per sealed package, written with its sealed files. The package's evidence is its weakest file's.
 * The state is the schedule: `upgrade_next_attempt_at` passed → the upgrade job (a file below B-LTA because no
 * TSA answered when it was sealed); `tsa_certificate_not_after` within EVIDENCE_RENEWAL_DAYS and
 * `renew_not_before` passed → the renewal job. Both jobs claim the row with `claim_token` until
 * `claimed_until` (the network work runs outside any transaction) and commit fenced by that token.
 */
export const packageEvidence = pgTable(
  "package_evidence",
  {
    packageId: text("package_id")
      .primaryKey()
      .references(() => packages.id, { onDelete: "cascade" }),
    ...tenantColumns(),
    level: text("level").$type<TEvidenceLevelName>().notNull(),
    /** The weakest file's signature time-stamp: its time and authority (null while any file is at B-B). */
    timestampedAt: ts("timestamped_at"),
    timestampAuthority: text("timestamp_authority"),
    /** The earliest over the files of their newest document time-stamp's TSA certificate expiry (B-LTA only). */
    tsaCertificateNotAfter: ts("tsa_certificate_not_after"),
    /** Set while an upgrade to B-LTA is pending: when it is next tried. */
    upgradeNextAttemptAt: ts("upgrade_next_attempt_at"),
    /** Upgrade attempts made since the seal (drives the backoff: 15 s, 30 s, 1 min, … at most hourly). */
    upgradeAttempts: integer("upgrade_attempts").notNull().default(0),
    /** A renewal that failed (or could not push the expiry out of the window) waits until then. */
    renewNotBefore: ts("renew_not_before"),
    renewAttempts: integer("renew_attempts").notNull().default(0),
    /** Why the last time-stamping attempt (seal, upgrade or renewal) failed; null once one succeeds. */
    lastError: text("last_error"),
    claimToken: text("claim_token"),
    claimedUntil: ts("claimed_until"),
    updatedAt: updatedAt(),
  },
  (t) => [index("package_evidence_upgrade_idx").on(t.upgradeNextAttemptAt), index("package_evidence_renewal_idx").on(t.tsaCertificateNotAfter)],
);

export type TPackageEvidenceRow = typeof packageEvidence.$inferSelect;

/**
 * The versions a sealed file had before its newest (which is the `sealed_files` row itself). Each newer version
 * is an incremental update of the one before, so an earlier version is the first `size` bytes of the newest
 * file; only its SHA-256 and level are kept here, for /verify ("a newer version exists").
 */
export const sealedFileVersions = pgTable(
  "sealed_file_versions",
  {
    id: id(),
    ...tenantColumns(),
    sealedFileId: text("sealed_file_id")
      .notNull()
      .references(() => sealedFiles.id, { onDelete: "cascade" }),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    evidenceLevel: text("evidence_level").$type<TEvidenceLevelName>().notNull(),
    /** When a newer version replaced it. */
    createdAt: createdAt(),
  },
  (t) => [index("sealed_file_versions_sha256_idx").on(t.sha256), uniqueIndex("sealed_file_versions_file_version_uq").on(t.sealedFileId, t.version)],
);

export type TSealedFileVersionRow = typeof sealedFileVersions.$inferSelect;
