import { createPackage } from "@/server/domain/packages/create-package";
import { listPackagesJson } from "@/server/domain/packages/list-packages";
import { apiRoute, JsonText } from "@/server/http/api-route";
import { createPackageOp, listPackagesOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages – the packages you can see, paged (its JSON written by PostgreSQL: package-list-json.ts)
export const GET = apiRoute(listPackagesOp, async ({ db, actor, query }) => new JsonText(await listPackagesJson(db, actor, query)));

// POST /api/v1/packages – a blank draft
export const POST = apiRoute(createPackageOp, ({ db, actor, body }) => createPackage(db, actor, body));
