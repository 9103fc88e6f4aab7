import { createPackage } from "@/server/domain/packages/create-package";
import { listPackages } from "@/server/domain/packages/list-packages";
import { apiRoute } from "@/server/http/api-route";
import { createPackageOp, listPackagesOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages – the packages you can see, paged
export const GET = apiRoute(listPackagesOp, ({ db, actor, query }) => listPackages(db, actor, query));

// POST /api/v1/packages – a blank draft
export const POST = apiRoute(createPackageOp, ({ db, actor, body }) => createPackage(db, actor, body));
