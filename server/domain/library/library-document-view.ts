import type { libraryDocuments } from "@/server/db/schema";
import type { TLibraryDocument } from "./schemas";

type TLibraryDocumentRow = typeof libraryDocuments.$inferSelect;

/** How a library document reads in both doors (the storage key stays on the server). */
export function toLibraryDocumentView(row: TLibraryDocumentRow): TLibraryDocument {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    contentType: "application/pdf",
    fileSize: row.fileSize,
    sha256: row.sha256,
    pageCount: row.pageCount,
    pageSizes: row.pageSizes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
