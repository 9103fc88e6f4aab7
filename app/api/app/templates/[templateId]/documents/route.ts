import { appRoute } from "@/server/auth/app-route";
import { addDocument } from "@/server/domain/documents/add-document";
import { listDocuments } from "@/server/domain/documents/list-documents";
import { appAddTemplateDocument, appListTemplateDocuments } from "@/server/domain/documents/operations";

// GET /api/app/templates/{templateId}/documents – the template's documents (editor)
export const GET = appRoute(appListTemplateDocuments, ({ db, actor, params }) => listDocuments(db, actor, { owner: params }));

// POST /api/app/templates/{templateId}/documents – add a document; the editor then PUTs the file to uploadUrl
export const POST = appRoute(appAddTemplateDocument, ({ db, actor, params, body }) => addDocument(db, actor, { ...body, owner: params }));
