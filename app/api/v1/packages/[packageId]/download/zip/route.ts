import { apiRoute } from "@/server/http/api-route";
import { zipResponse } from "@/server/http/file-response";
import { openSealedZip } from "@/server/domain/packages/open-sealed-zip";
import { downloadPackageZipOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId}/download/zip – every sealed document and the certificate, zipped as it streams (409 before completion)
export const GET = apiRoute(downloadPackageZipOp, async ({ db, actor, params }) => zipResponse(await openSealedZip(db, actor, params)));
