import { voidPackage } from "@/server/domain/packages/void-package";
import { apiRoute } from "@/server/http/api-route";
import { voidPackageOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/{packageId}/void – void a sent package
export const POST = apiRoute(voidPackageOp, ({ db, actor, params, body }) => voidPackage(db, actor, { ...params, ...body }));
