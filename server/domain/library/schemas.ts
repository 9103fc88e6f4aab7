/**
 * Every schema of the document library: reusable PDFs of a workspace, readable through the API (search, at
 * most 50) and managed in the app (upload, rename, delete). A library document is always a PDF that
 * inspection opened: its size, SHA-256, page count and page sizes are what the upload proved.
 */
import { z } from "@/server/lib/zod";

/** The spec's cap on library search results. */
export const LIBRARY_SEARCH_LIMIT = 50;

const ZName = z.string().trim().min(1, "Enter a name").max(200, "At most 200 characters");

export const ZLibraryDocumentParams = z.object({
  libraryDocumentId: z.string().min(1).openapi({ example: "libd_0190f3c2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4" }),
});

export const ZListLibraryDocumentsQuery = z.object({
  search: z.string().trim().max(200).optional().openapi({ description: "Case-insensitive match on the name; at most 50 documents are returned either way" }),
});
export type TListLibraryDocumentsQuery = z.output<typeof ZListLibraryDocumentsQuery>;

export const ZLibraryDocument = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    contentType: z.literal("application/pdf"),
    fileSize: z.number().int().openapi({ description: "Bytes" }),
    sha256: z.string().openapi({ description: "Lower-case hex SHA-256 of the stored file" }),
    pageCount: z.number().int(),
    pageSizes: z
      .array(z.object({ width: z.number(), height: z.number() }))
      .openapi({ description: "Each page's displayed size in PDF points (rotation applied)" }),
    createdAt: z.string().openapi({ format: "date-time" }),
    updatedAt: z.string().openapi({ format: "date-time" }),
  })
  .openapi("LibraryDocument");
export type TLibraryDocument = z.output<typeof ZLibraryDocument>;

export const ZLibraryDocumentList = z
  .object({ documents: z.array(ZLibraryDocument).openapi({ description: "By name (A→Z), at most 50" }) })
  .openapi("LibraryDocumentList");

/** The upload's query: the raw PDF bytes are the request body (Content-Length announces their size). */
export const ZUploadLibraryDocumentQuery = z.object({ name: ZName, description: z.string().trim().max(2000).optional() });
export type TUploadLibraryDocumentQuery = z.output<typeof ZUploadLibraryDocumentQuery>;

export const ZUpdateLibraryDocument = z
  .object({ name: ZName.optional(), description: z.string().trim().max(2000, "At most 2,000 characters").nullable().optional() })
  .openapi("UpdateLibraryDocument");
export type TUpdateLibraryDocument = z.output<typeof ZUpdateLibraryDocument>;

export const ZDeletedLibraryDocument = z.object({ id: z.string(), deleted: z.literal(true) }).openapi("DeletedLibraryDocument");

/** Domain inputs: the operation's params (and body) merged, as the route parsed them. */
export type TLibraryDocumentRef = z.output<typeof ZLibraryDocumentParams>;
export type TUpdateLibraryDocumentInput = TLibraryDocumentRef & TUpdateLibraryDocument;
