import { appRoute } from "@/server/auth/app-route";
import { pdfResponse } from "@/server/http/file-response";
import { openSealedDownload } from "@/server/domain/packages/open-sealed-download";
import { appGetPackageCertificateOp } from "@/server/domain/packages/operations";

// GET /api/app/packages/{packageId}/certificate – the certificate of completion, streamed
export const GET = appRoute(appGetPackageCertificateOp, async ({ db, actor, params }) =>
  pdfResponse(await openSealedDownload(db, actor, { ...params, kind: "certificate" }), { disposition: "attachment" }),
);
