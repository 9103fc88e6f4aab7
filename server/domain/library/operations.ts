/**
 * The document library's operations: the public read (op 50, any key of the workspace) and the app's
 * management routes (internal). Reads need nothing beyond the door; managing the library is template work,
 * so it needs template access CREATE (owners always have it).
 */
import { defineOperation } from "@/server/domain/operation";
import {
  ZDeletedLibraryDocument,
  ZLibraryDocument,
  ZLibraryDocumentList,
  ZLibraryDocumentParams,
  ZListLibraryDocumentsQuery,
  ZUpdateLibraryDocument,
  ZUploadLibraryDocumentQuery,
} from "./schemas";

export const listLibraryDocuments = defineOperation({
  tag: "Library",
  operationId: "listLibraryDocuments",
  method: "GET",
  path: "/api/v1/library/documents",
  summary: "Search the workspace's document library (by name, at most 50, not paged)",
  description:
    "Reusable PDFs of the workspace, ordered by name. `search` matches anywhere in the name, case-insensitively. At most 50 documents are returned; narrow the search to find others. A library document can be added to a template or package with `libraryDocumentId`.",
  query: ZListLibraryDocumentsQuery,
  response: ZLibraryDocumentList,
});

// ——— The app's own routes (/api/app/library/…): internal, in the signed-in member's current workspace ———

const app = { tag: "App: library", internal: true } as const;
const manage = { ...app, templateAccess: "CREATE" } as const;

export const appListLibraryDocuments = defineOperation({
  ...app,
  operationId: "appListLibraryDocuments",
  method: "GET",
  path: "/api/app/library/documents",
  summary: "The library (search by name, at most 50)",
  query: ZListLibraryDocumentsQuery,
  response: ZLibraryDocumentList,
});

export const appUploadLibraryDocument = defineOperation({
  ...manage,
  operationId: "appUploadLibraryDocument",
  method: "PUT",
  path: "/api/app/library/documents",
  summary: "Upload a PDF into the library: the raw bytes are the body, `name` in the query",
  description: "Streamed to storage under the per-document limit (413), then inspected: only a PDF that opens is kept (422 with the reason otherwise).",
  successStatus: 201,
  query: ZUploadLibraryDocumentQuery,
  rawBodyTypes: ["application/pdf"],
  response: ZLibraryDocument,
  errors: [413],
});

export const appUpdateLibraryDocument = defineOperation({
  ...manage,
  operationId: "appUpdateLibraryDocument",
  method: "PATCH",
  path: "/api/app/library/documents/{libraryDocumentId}",
  summary: "Rename a library document",
  params: ZLibraryDocumentParams,
  body: ZUpdateLibraryDocument,
  response: ZLibraryDocument,
  errors: [404],
});

export const appDeleteLibraryDocument = defineOperation({
  ...manage,
  operationId: "appDeleteLibraryDocument",
  method: "DELETE",
  path: "/api/app/library/documents/{libraryDocumentId}",
  summary: "Remove a document from the library (templates and packages that added it keep their copy)",
  params: ZLibraryDocumentParams,
  response: ZDeletedLibraryDocument,
  errors: [404],
});
