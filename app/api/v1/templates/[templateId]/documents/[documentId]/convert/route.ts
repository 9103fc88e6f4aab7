import { apiRoute } from "@/server/http/api-route";
import { convertDocument } from "@/server/domain/documents/convert-document";
import { convertTemplateDocument } from "@/server/domain/documents/operations";

// POST /api/v1/templates/{templateId}/documents/{documentId}/convert – DOCX → PDF with LibreOffice
export const POST = apiRoute(convertTemplateDocument, ({ db, actor, params }) =>
  convertDocument(db, actor, { owner: { templateId: params.templateId }, documentId: params.documentId }),
);
