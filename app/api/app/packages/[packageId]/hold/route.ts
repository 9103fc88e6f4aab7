import { holdPackage } from "@/server/domain/packages/hold-package";
import { appRoute } from "@/server/auth/app-route";
import { appHoldPackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/hold – put on hold
export const POST = appRoute(appHoldPackageOp, ({ db, actor, params }) => holdPackage(db, actor, params));
