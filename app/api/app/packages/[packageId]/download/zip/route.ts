import { appRoute } from "@/server/auth/app-route";
import { zipResponse } from "@/server/http/file-response";
import { openSealedZip } from "@/server/domain/packages/open-sealed-zip";
import { appDownloadPackageZipOp } from "@/server/domain/packages/operations";

// GET /api/app/packages/{packageId}/download/zip – every sealed document and the certificate, zipped as it streams
export const GET = appRoute(appDownloadPackageZipOp, async ({ db, actor, params }) => zipResponse(await openSealedZip(db, actor, params)));
