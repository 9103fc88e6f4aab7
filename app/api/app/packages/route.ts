import { listPackagesJson } from "@/server/domain/packages/list-packages";
import { appRoute } from "@/server/auth/app-route";
import { JsonText } from "@/server/http/route";
import { appListPackagesOp } from "@/server/domain/packages/operations";

// GET /api/app/packages – the packages you can see, paged (its JSON written by PostgreSQL: package-list-json.ts)
export const GET = appRoute(appListPackagesOp, async ({ db, actor, query }) => new JsonText(await listPackagesJson(db, actor, query)));
