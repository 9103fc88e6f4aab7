import { sendPackage } from "@/server/domain/packages/send-package";
import { apiRoute } from "@/server/http/api-route";
import { sendPackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/send – send now or schedule
export const POST = apiRoute(sendPackageOp, ({ db, actor, params, body }) => sendPackage(db, actor, { ...params, ...body }));
