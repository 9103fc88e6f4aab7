import { appRoute } from "@/server/auth/app-route";
import { appUnsharePackageOp } from "@/server/domain/packages/operations";
import { unsharePackage } from "@/server/domain/packages/unshare-package";

// DELETE /api/app/packages/{packageId}/shares/{userId} – stop sharing with a member
export const DELETE = appRoute(appUnsharePackageOp, ({ db, actor, params }) => unsharePackage(db, actor, params));
