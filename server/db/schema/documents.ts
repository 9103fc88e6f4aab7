/**
 * The documents aggregate: a stored document of a template or of a package, and its single-use upload URLs.
 *
 * A document's bytes live in the file store (server/storage) under `storage_key`; the row records what the
 * upload proved (size, SHA-256, page count and page sizes). Originals are never modified: a converted DOCX
 * gets a new stored PDF, and sealing writes new files.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";
import { tenantColumns } from "./organisations";
import { templates } from "./templates";

export const DOCUMENT_CONTENT_TYPES = ["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"] as const;
export type TDocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** AWAITING_UPLOAD until the PUT proved the bytes; UPLOADED after. A DOCX stays DOCX until converted. */
export const DOCUMENT_UPLOAD_STATES = ["AWAITING_UPLOAD", "UPLOADED"] as const;
export type TDocumentUploadState = (typeof DOCUMENT_UPLOAD_STATES)[number];

export type TPageSize = { width: number; height: number };

/**
 * A stored document of a template or of a package (exactly one owner). `storageKey` is set once the bytes are
 * in the file store; a converted DOCX keeps its original under `sourceStorageKey`.
 */
export const documents = pgTable(
  "documents",
  {
    id: id(),
    ...tenantColumns(),
    templateId: text("template_id").references(() => templates.id, { onDelete: "cascade" }),
    packageId: text("package_id"),
    position: integer("position").notNull().default(0),
    name: text("name").notNull(),
    contentType: text("content_type").$type<TDocumentContentType>().notNull(),
    /** Declared at add time; the upload must match it. */
    fileSize: integer("file_size").notNull(),
    uploadState: text("upload_state").$type<TDocumentUploadState>().notNull().default("AWAITING_UPLOAD"),
    storageKey: text("storage_key"),
    sha256: text("sha256"),
    pageCount: integer("page_count"),
    pageSizes: jsonb("page_sizes").$type<TPageSize[]>(),
    /** The DOCX this PDF was converted from, kept unchanged. */
    sourceStorageKey: text("source_storage_key"),
    sourceSha256: text("source_sha256"),
    libraryDocumentId: text("library_document_id"),
    uploadedAt: ts("uploaded_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("documents_template_idx").on(t.templateId, t.position),
    index("documents_package_idx").on(t.packageId, t.position),
    // "Does any row name this stored file?": releasing a file, and the stored-file sweep (server/domain/file-sweep/).
    index("documents_storage_key_idx")
      .on(t.storageKey)
      .where(sql`${t.storageKey} is not null`),
    index("documents_source_storage_key_idx")
      .on(t.sourceStorageKey)
      .where(sql`${t.sourceStorageKey} is not null`),
    check("documents_one_owner", sql`(${t.templateId} is null) <> (${t.packageId} is null)`),
  ],
);

/** Single-use upload URLs: only the SHA-256 of the token is stored. */
export const uploadTokens = pgTable(
  "upload_tokens",
  {
    id: id(),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("upload_tokens_hash_uq").on(t.tokenHash), index("upload_tokens_document_idx").on(t.documentId)],
);

export type TDocumentRow = typeof documents.$inferSelect;
export type TUploadTokenRow = typeof uploadTokens.$inferSelect;
