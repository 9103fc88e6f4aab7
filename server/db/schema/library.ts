import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { type TDocumentContentType, type TPageSize } from "./documents";
import { tenantColumns, users } from "./organisations";

/** Reusable PDFs of a workspace, addable to templates and packages. */
export const libraryDocuments = pgTable(
  "library_documents",
  {
    id: id(),
    ...tenantColumns(),
    name: text("name").notNull(),
    description: text("description"),
    contentType: text("content_type").$type<TDocumentContentType>().notNull().default("application/pdf"),
    fileSize: integer("file_size").notNull(),
    storageKey: text("storage_key").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    pageSizes: jsonb("page_sizes").$type<TPageSize[]>().notNull(),
    createdByUserId: text("created_by_user_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("library_documents_ws_name_idx").on(t.workspaceId, t.name), index("library_documents_storage_key_idx").on(t.storageKey)],
);

export type TLibraryDocumentRow = typeof libraryDocuments.$inferSelect;
