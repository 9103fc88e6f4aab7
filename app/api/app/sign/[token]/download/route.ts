import { publicAppRoute } from "@/server/auth/app-route";
import { openSignedCopy } from "@/server/domain/signing/open-signed-copy";
import { appDownloadSignedCopy } from "@/server/domain/signing/operations";
import { pdfResponse } from "@/server/http/file-response";
import { signingRequest } from "@/server/http/signing-request";

// GET /api/app/sign/{token}/download – the recipient's signed copy (merged sealed PDF), once the package is COMPLETED
export const GET = publicAppRoute(appDownloadSignedCopy, async ({ db, req, params }) =>
  pdfResponse(await openSignedCopy(db, signingRequest(req, params.token)), { disposition: "attachment" }),
);
