import { listPackageAuditEvents } from "@/server/domain/packages/list-package-audit-events";
import { appRoute } from "@/server/auth/app-route";
import { appListPackageAuditEventsOp } from "@/server/domain/packages/operations";

// GET /api/app/packages/{packageId}/audit-events – the audit trail, newest first
export const GET = appRoute(appListPackageAuditEventsOp, ({ db, actor, params, query }) => listPackageAuditEvents(db, actor, { ...params, ...query }));
