import { bulkSendPackages } from "@/server/domain/packages/bulk-send-packages";
import { apiRoute } from "@/server/http/api-route";
import { bulkSendPackagesOp } from "@/server/domain/packages/operations";

// POST /api/v1/packages/bulk-send – create and send up to 100 packages
export const POST = apiRoute(bulkSendPackagesOp, ({ db, actor, body }) => bulkSendPackages(db, actor, body));
