import { appRoute } from "@/server/auth/app-route";
import { readDocumentFile } from "@/server/domain/documents/read-document-file";
import { appGetTemplateDocumentFile } from "@/server/domain/documents/operations";
import { pdfResponse } from "@/server/http/file-response";

// GET /api/app/templates/{templateId}/documents/{documentId}/file – the stored PDF, streamed for pdf.js
export const GET = appRoute(appGetTemplateDocumentFile, async ({ db, actor, params }) =>
  pdfResponse(await readDocumentFile(db, actor, { owner: { templateId: params.templateId }, documentId: params.documentId })),
);
