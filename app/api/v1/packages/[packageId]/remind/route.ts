import { remindPackage } from "@/server/domain/packages/remind-package";
import { apiRoute } from "@/server/http/api-route";
import { remindPackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/remind – remind open sessions
export const POST = apiRoute(remindPackageOp, ({ db, actor, params, body }) => remindPackage(db, actor, { ...params, ...body }));
