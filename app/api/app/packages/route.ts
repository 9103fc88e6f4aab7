import { listPackages } from "@/server/domain/packages/list-packages";
import { appRoute } from "@/server/auth/app-route";
import { appListPackagesOp } from "@/server/domain/packages/operations";

// GET /api/app/packages – the packages you can see, paged
export const GET = appRoute(appListPackagesOp, ({ db, actor, query }) => listPackages(db, actor, query));
