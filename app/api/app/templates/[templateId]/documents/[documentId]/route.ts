import { appRoute } from "@/server/auth/app-route";
import { deleteDocument } from "@/server/domain/documents/delete-document";
import { appDeleteTemplateDocument } from "@/server/domain/documents/operations";

// DELETE /api/app/templates/{templateId}/documents/{documentId} – delete a document and its fields (editor)
export const DELETE = appRoute(appDeleteTemplateDocument, ({ db, actor, params }) =>
  deleteDocument(db, actor, { owner: { templateId: params.templateId }, documentId: params.documentId }),
);
