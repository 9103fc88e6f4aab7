import { addPackageDocument } from "@/server/domain/packages/add-package-document";
import { listPackageDocuments } from "@/server/domain/packages/list-package-documents";
import { apiRoute } from "@/server/http/api-route";
import { addPackageDocumentOp, listPackageDocumentsOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId}/documents – the package's documents
export const GET = apiRoute(listPackageDocumentsOp, ({ db, actor, params }) => listPackageDocuments(db, actor, params));

// POST /api/v1/packages/{packageId}/documents – add a document (upload URL)
export const POST = apiRoute(addPackageDocumentOp, ({ db, actor, params, body }) => addPackageDocument(db, actor, { ...params, ...body }));
