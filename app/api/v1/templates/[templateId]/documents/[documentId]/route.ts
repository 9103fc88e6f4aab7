import { apiRoute } from "@/server/http/api-route";
import { deleteDocument } from "@/server/domain/documents/delete-document";
import { deleteTemplateDocument } from "@/server/domain/documents/operations";

// DELETE /api/v1/templates/{templateId}/documents/{documentId} – delete a document and its fields
export const DELETE = apiRoute(deleteTemplateDocument, ({ db, actor, params }) =>
  deleteDocument(db, actor, { owner: { templateId: params.templateId }, documentId: params.documentId }),
);
