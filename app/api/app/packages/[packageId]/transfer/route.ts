import { transferPackage } from "@/server/domain/packages/transfer-package";
import { appRoute } from "@/server/auth/app-route";
import { appTransferPackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/transfer – give to another member
export const POST = appRoute(appTransferPackageOp, ({ db, actor, params, body }) => transferPackage(db, actor, { ...params, ...body }));
