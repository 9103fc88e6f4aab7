import type { documents } from "@/server/db/schema";
import type { TTemplateDocument } from "@/server/domain/templates/schemas";

type TDocumentRow = typeof documents.$inferSelect;

/** The one mapping from a documents row to the API's document shape (storage keys never leave the server). */
export function toDocumentView(row: TDocumentRow): TTemplateDocument {
  return {
    id: row.id,
    name: row.name,
    contentType: row.contentType,
    fileSize: row.fileSize,
    uploadState: row.uploadState,
    sha256: row.sha256,
    pageCount: row.pageCount,
    pageSizes: row.pageSizes,
    convertedFromDocx: row.sourceStorageKey !== null,
    libraryDocumentId: row.libraryDocumentId,
    createdAt: row.createdAt.toISOString(),
    uploadedAt: row.uploadedAt?.toISOString() ?? null,
  };
}
