import { appRoute } from "@/server/auth/app-route";
import { listMyFailedSignIns } from "@/server/domain/member-sessions/list-my-failed-sign-ins";
import { appListMyFailedSignIns } from "@/server/domain/member-sessions/operations";

// GET /api/app/me/failed-sign-ins – wrong passwords given for the signed-in member's address, last 30 days
export const GET = appRoute(appListMyFailedSignIns, ({ db, actor }) => listMyFailedSignIns(db, actor));
