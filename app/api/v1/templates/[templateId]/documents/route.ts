import { apiRoute } from "@/server/http/api-route";
import { addDocument } from "@/server/domain/documents/add-document";
import { listDocuments } from "@/server/domain/documents/list-documents";
import { addTemplateDocument, listTemplateDocuments } from "@/server/domain/documents/operations";

// GET /api/v1/templates/{templateId}/documents – the template's documents in order, with their upload state
export const GET = apiRoute(listTemplateDocuments, ({ db, actor, params }) => listDocuments(db, actor, { owner: params }));

// POST /api/v1/templates/{templateId}/documents – add a document; answers its single-use upload URL
export const POST = apiRoute(addTemplateDocument, ({ db, actor, params, body }) => addDocument(db, actor, { ...body, owner: params }));
