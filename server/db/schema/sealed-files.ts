import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { TEvidenceLevelName } from "@/common/evidence";
import { createdAt, id, ts } from "./columns";
import { packages } from "./packages";
import { tenantColumns } from "./organisations";

export const SEALED_FILE_KINDS = ["document", "merged", "certificate"] as const;
export type TSealedFileKind = (typeof SEALED_FILE_KINDS)[number];

/**
 * The outputs of a sealed package (server/domain/sealing/): one sealed PDF per document, the merged PDF and the
 * certificate alone, kept in the file store under `storage_key`. Written in the transaction that completes the
 * package, so a COMPLETED package always has them. `sha256` is what /verify looks a file up by.
 * A row is the file's NEWEST version (what downloads serve): an evidence upgrade or renewal (issue 20) replaces
 * `storage_key`, `sha256`, `size` and the evidence columns, bumps `version`, and keeps the version it replaced
 * in `sealed_file_versions` (evidence.ts), so /verify still recognises an earlier copy.
 */
export const sealedFiles = pgTable(
  "sealed_files",
  {
    id: id(),
    ...tenantColumns(),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    kind: text("kind").$type<TSealedFileKind>().notNull(),
    /** The package document it seals (kind `document` only). */
    documentId: text("document_id"),
    name: text("name").notNull(),
    position: integer("position").notNull().default(0),
    storageKey: text("storage_key").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    pages: integer("pages").notNull(),
    /** 1 when sealed; +1 per evidence upgrade or renewal (each an incremental update of the previous version). */
    version: integer("version").notNull().default(1),
    /** The PAdES baseline level this version reaches (server/pdf/evidence). */
    evidenceLevel: text("evidence_level").$type<TEvidenceLevelName>().notNull().default("B-B"),
    /** The signature time-stamp's time and its authority (null at B-B). */
    timestampedAt: ts("timestamped_at"),
    timestampAuthority: text("timestamp_authority"),
    /** When the TSA certificate of the newest document time-stamp expires (B-LTA only): renewal is due before it. */
    tsaCertificateNotAfter: ts("tsa_certificate_not_after"),
    createdAt: createdAt(),
  },
  (t) => [
    index("sealed_files_package_idx").on(t.packageId, t.kind, t.position),
    index("sealed_files_sha256_idx").on(t.sha256),
    uniqueIndex("sealed_files_storage_key_uq").on(t.storageKey),
  ],
);

export type TSealedFileRow = typeof sealedFiles.$inferSelect;
