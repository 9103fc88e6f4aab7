import { convertPackageDocument } from "@/server/domain/packages/convert-package-document";
import { apiRoute } from "@/server/http/api-route";
import { convertPackageDocumentOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/documents/{documentId}/convert – DOCX → PDF with LibreOffice
export const POST = apiRoute(convertPackageDocumentOp, ({ db, actor, params }) => convertPackageDocument(db, actor, params));
