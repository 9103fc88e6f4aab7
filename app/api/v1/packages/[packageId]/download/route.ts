import { apiRoute } from "@/server/http/api-route";
import { pdfResponse } from "@/server/http/file-response";
import { openSealedDownload } from "@/server/domain/packages/open-sealed-download";
import { downloadPackageOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId}/download – the merged sealed PDF, streamed (409 before completion, 413 too large)
export const GET = apiRoute(downloadPackageOp, async ({ db, actor, params }) =>
  pdfResponse(await openSealedDownload(db, actor, { ...params, kind: "merged" }), { disposition: "attachment" }),
);
