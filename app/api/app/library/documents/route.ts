import { appRoute } from "@/server/auth/app-route";
import { listLibraryDocuments } from "@/server/domain/library/list-library-documents";
import { appListLibraryDocuments, appUploadLibraryDocument } from "@/server/domain/library/operations";
import { uploadLibraryDocument } from "@/server/domain/library/upload-library-document";
import { declaredLength } from "@/server/http/declared-length";

// GET /api/app/library/documents – the library (search by name, at most 50)
export const GET = appRoute(appListLibraryDocuments, ({ db, actor, query }) => listLibraryDocuments(db, actor, query));

// PUT /api/app/library/documents?name=… – upload a PDF (raw body, streamed, inspected)
export const PUT = appRoute(appUploadLibraryDocument, ({ db, actor, query, req }) =>
  uploadLibraryDocument(db, actor, { ...query, body: req.body, size: declaredLength(req) }),
);
