import { appRoute } from "@/server/auth/app-route";
import { listActivity } from "@/server/domain/activity/list-activity";
import { appListActivity } from "@/server/domain/activity/operations";

// GET /api/app/activity – the organisation's administrative changes, newest first (owner only)
export const GET = appRoute(appListActivity, ({ db, actor, query }) => listActivity(db, actor, query));
