import { deletePackage } from "@/server/domain/packages/delete-package";
import { getPackage } from "@/server/domain/packages/get-package";
import { updatePackage } from "@/server/domain/packages/update-package";
import { apiRoute } from "@/server/http/api-route";
import { deletePackageOp, getPackageOp, updatePackageOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId} – a package with its sessions and documents
export const GET = apiRoute(getPackageOp, ({ db, actor, params }) => getPackage(db, actor, params));

// PATCH /api/v1/packages/{packageId} – change a draft or scheduled package
export const PATCH = apiRoute(updatePackageOp, ({ db, actor, params, body }) => updatePackage(db, actor, { ...params, ...body }));

// DELETE /api/v1/packages/{packageId} – delete a package
export const DELETE = apiRoute(deletePackageOp, ({ db, actor, params }) => deletePackage(db, actor, params));
