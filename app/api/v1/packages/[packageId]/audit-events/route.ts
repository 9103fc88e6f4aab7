import { listPackageAuditEvents } from "@/server/domain/packages/list-package-audit-events";
import { apiRoute } from "@/server/http/api-route";
import { listPackageAuditEventsOp } from "@/server/domain/packages/operations";

// GET /api/v1/packages/{packageId}/audit-events – the audit trail, newest first
export const GET = apiRoute(listPackageAuditEventsOp, ({ db, actor, params, query }) => listPackageAuditEvents(db, actor, { ...params, ...query }));
