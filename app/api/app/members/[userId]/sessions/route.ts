import { appRoute } from "@/server/auth/app-route";
import { listMemberSessions } from "@/server/domain/member-sessions/list-member-sessions";
import { appListMemberSessions } from "@/server/domain/member-sessions/operations";

// GET /api/app/members/{userId}/sessions – where a member is signed in (owner only)
export const GET = appRoute(appListMemberSessions, ({ db, actor, params }) => listMemberSessions(db, actor, { userId: params.userId }));
