import { voidPackage } from "@/server/domain/packages/void-package";
import { appRoute } from "@/server/auth/app-route";
import { appVoidPackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/void – void a sent package
export const POST = appRoute(appVoidPackageOp, ({ db, actor, params, body }) => voidPackage(db, actor, { ...params, ...body }));
