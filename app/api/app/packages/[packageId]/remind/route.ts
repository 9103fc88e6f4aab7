import { remindPackage } from "@/server/domain/packages/remind-package";
import { appRoute } from "@/server/auth/app-route";
import { appRemindPackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/remind – remind open sessions
export const POST = appRoute(appRemindPackageOp, ({ db, actor, params, body }) => remindPackage(db, actor, { ...params, ...body }));
