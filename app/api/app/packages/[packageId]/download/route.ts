import { appRoute } from "@/server/auth/app-route";
import { pdfResponse } from "@/server/http/file-response";
import { openSealedDownload } from "@/server/domain/packages/open-sealed-download";
import { appDownloadPackageOp } from "@/server/domain/packages/operations";

// GET /api/app/packages/{packageId}/download – the merged sealed PDF, streamed (409 before completion, 413 too large)
export const GET = appRoute(appDownloadPackageOp, async ({ db, actor, params }) =>
  pdfResponse(await openSealedDownload(db, actor, { ...params, kind: "merged" }), { disposition: "attachment" }),
);
