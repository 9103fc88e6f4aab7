import { appRoute } from "@/server/auth/app-route";
import { listMySessions } from "@/server/domain/member-sessions/list-my-sessions";
import { appListMySessions } from "@/server/domain/member-sessions/operations";

// GET /api/app/me/sessions – where the signed-in member is signed in, this session first
export const GET = appRoute(appListMySessions, ({ db, actor }) => listMySessions(db, actor));
