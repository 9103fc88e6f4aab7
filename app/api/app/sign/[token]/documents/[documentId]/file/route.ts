import { publicAppRoute } from "@/server/auth/app-route";
import { appGetSigningDocumentFile } from "@/server/domain/signing/operations";
import { readSigningDocument } from "@/server/domain/signing/read-signing-document";
import { pdfResponse } from "@/server/http/file-response";
import { signingRequest } from "@/server/http/signing-request";

// GET /api/app/sign/{token}/documents/{documentId}/file – the original PDF, streamed
export const GET = publicAppRoute(appGetSigningDocumentFile, async ({ db, req, params }) =>
  pdfResponse(await readSigningDocument(db, signingRequest(req, params.token), params.documentId)),
);
