import { sendPackage } from "@/server/domain/packages/send-package";
import { appRoute } from "@/server/auth/app-route";
import { appSendPackageOp } from "@/server/domain/packages/operations";

// POST /api/app/packages/{packageId}/send – send now or schedule
export const POST = appRoute(appSendPackageOp, ({ db, actor, params, body }) => sendPackage(db, actor, { ...params, ...body }));
