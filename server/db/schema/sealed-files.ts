import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { packages } from "./packages";
import { tenantColumns } from "./organisations";

export const SEALED_FILE_KINDS = ["document", "merged", "certificate"] as const;
export type TSealedFileKind = (typeof SEALED_FILE_KINDS)[number];

/**
 * The outputs of a sealed package (server/domain/sealing/): one sealed PDF per document, the merged PDF and the
 * certificate alone, kept in the file store under `storage_key`. Written in the transaction that completes the
 * package, so a COMPLETED package always has them. `sha256` is what /verify looks a file up by.
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
    createdAt: createdAt(),
  },
  (t) => [
    index("sealed_files_package_idx").on(t.packageId, t.kind, t.position),
    index("sealed_files_sha256_idx").on(t.sha256),
    uniqueIndex("sealed_files_storage_key_uq").on(t.storageKey),
  ],
);

export type TSealedFileRow = typeof sealedFiles.$inferSelect;
