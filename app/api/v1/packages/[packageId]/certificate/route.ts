import { apiRoute } from "@/server/http/api-route";
import { pdfResponse } from "@/server/http/file-response";
import { openSealedDownload } from "@/server/domain/packages/open-sealed-download";
import { getPackageCertificateOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId}/certificate – the certificate of completion, streamed (409 before completion)
export const GET = apiRoute(getPackageCertificateOp, async ({ db, actor, params }) =>
  pdfResponse(await openSealedDownload(db, actor, { ...params, kind: "certificate" }), { disposition: "attachment" }),
);
