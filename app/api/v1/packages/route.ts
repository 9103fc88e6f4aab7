import { createPackage } from "@/server/domain/packages/create-package";
import { listPackages } from "@/server/domain/packages/list-packages";
import { packageListJson } from "@/server/domain/packages/package-list-json";
import { apiRoute, JsonText } from "@/server/http/api-route";
import { createPackageOp, listPackagesOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages – the packages you can see, paged (its JSON written directly: package-list-json.ts)
export const GET = apiRoute(listPackagesOp, async ({ db, actor, query }) => new JsonText(packageListJson(await listPackages(db, actor, query))));

// POST /api/v1/packages – a blank draft
export const POST = apiRoute(createPackageOp, ({ db, actor, body }) => createPackage(db, actor, body));
