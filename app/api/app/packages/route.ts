import { listPackages } from "@/server/domain/packages/list-packages";
import { packageListJson } from "@/server/domain/packages/package-list-json";
import { appRoute } from "@/server/auth/app-route";
import { JsonText } from "@/server/http/route";
import { appListPackagesOp } from "@/server/domain/packages/operations";

// GET /api/app/packages – the packages you can see, paged (its JSON written directly: package-list-json.ts)
export const GET = appRoute(appListPackagesOp, async ({ db, actor, query }) => new JsonText(packageListJson(await listPackages(db, actor, query))));
