import { appRoute } from "@/server/auth/app-route";
import { WithStatus } from "@/server/http/api-route";
import { listPackageShares } from "@/server/domain/packages/list-package-shares";
import { appListPackageSharesOp, appSharePackageOp } from "@/server/domain/packages/operations";
import { sharePackage } from "@/server/domain/packages/share-package";

// GET /api/app/packages/{packageId}/shares – whom the package is shared with
export const GET = appRoute(appListPackageSharesOp, ({ db, actor, params }) => listPackageShares(db, actor, params));

// POST /api/app/packages/{packageId}/shares – share with a member (200 with the existing share when already shared)
export const POST = appRoute(appSharePackageOp, async ({ db, actor, params, body }) => {
  const r = await sharePackage(db, actor, { ...params, ...body });
  return r.created ? r.share : new WithStatus(200, r.share);
});
