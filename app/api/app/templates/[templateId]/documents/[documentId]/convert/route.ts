import { appRoute } from "@/server/auth/app-route";
import { convertDocument } from "@/server/domain/documents/convert-document";
import { appConvertTemplateDocument } from "@/server/domain/documents/operations";

// POST /api/app/templates/{templateId}/documents/{documentId}/convert – DOCX → PDF (editor)
export const POST = appRoute(appConvertTemplateDocument, ({ db, actor, params }) =>
  convertDocument(db, actor, { owner: { templateId: params.templateId }, documentId: params.documentId }),
);
