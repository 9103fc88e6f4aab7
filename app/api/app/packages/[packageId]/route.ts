import { deletePackage } from "@/server/domain/packages/delete-package";
import { getPackage } from "@/server/domain/packages/get-package";
import { appRoute } from "@/server/auth/app-route";
import { appDeletePackageOp, appGetPackageOp, appUpdatePackageOp } from "@/server/domain/packages/operations";
import { updatePackage } from "@/server/domain/packages/update-package";

// GET /api/app/packages/{packageId} – a package with its sessions and documents
export const GET = appRoute(appGetPackageOp, ({ db, actor, params }) => getPackage(db, actor, params));

// DELETE /api/app/packages/{packageId} – delete a package
export const DELETE = appRoute(appDeletePackageOp, ({ db, actor, params }) => deletePackage(db, actor, params));

// PATCH /api/app/packages/{packageId} – change a DRAFT or SCHEDULED package (e.g. move its send time)
export const PATCH = appRoute(appUpdatePackageOp, ({ db, actor, params, body }) => updatePackage(db, actor, { ...params, ...body }));
