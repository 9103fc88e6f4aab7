import { holdPackage } from "@/server/domain/packages/hold-package";
import { apiRoute } from "@/server/http/api-route";
import { holdPackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/hold – put on hold
export const POST = apiRoute(holdPackageOp, ({ db, actor, params }) => holdPackage(db, actor, params));
