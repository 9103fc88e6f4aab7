import { bigint, customType, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** drizzle 0.45 has no bytea builder; both drivers hand back a Uint8Array (postgres.js: a Buffer). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * Files kept by the database storage backend (server/storage). A row is written only once every chunk of its
 * blob is in place, so a key never names a partial file.
 */
export const storedFiles = pgTable("stored_files", {
  key: text("key").primaryKey(),
  /** The chunks of this version; a replaced file's old blob is deleted when the new one is published. */
  blobId: text("blob_id").notNull(),
  size: bigint("size", { mode: "number" }).notNull(),
  sha256: text("sha256").notNull(),
  contentType: text("content_type").notNull(),
  createdAt: createdAt(),
});

/**
 * Bytes of a blob in order, at most the backend's chunk size (256 KB) each. Chunks are written before their
 * `stored_files` row exists (no transaction spans the upload); an upload that fails deletes its own, and
 * `created_at` lets a sweep find those of a process that died mid-upload.
 */
export const storedFileChunks = pgTable(
  "stored_file_chunks",
  {
    blobId: text("blob_id").notNull(),
    index: integer("index").notNull(),
    data: bytea("data").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blobId, t.index] }), index("stored_file_chunks_created_idx").on(t.createdAt)],
);

export type TStoredFileRow = typeof storedFiles.$inferSelect;
export type TStoredFileChunkRow = typeof storedFileChunks.$inferSelect;
