import { transferPackage } from "@/server/domain/packages/transfer-package";
import { apiRoute } from "@/server/http/api-route";
import { transferPackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/transfer – give to another member
export const POST = apiRoute(transferPackageOp, ({ db, actor, params, body }) => transferPackage(db, actor, { ...params, ...body }));
