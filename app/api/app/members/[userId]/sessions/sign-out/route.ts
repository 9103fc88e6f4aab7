import { appRoute } from "@/server/auth/app-route";
import { endMemberSessions } from "@/server/domain/member-sessions/end-member-sessions";
import { appEndMemberSessions } from "@/server/domain/member-sessions/operations";

// POST /api/app/members/{userId}/sessions/sign-out – sign a member out everywhere (owner only)
export const POST = appRoute(appEndMemberSessions, ({ db, actor, params }) => endMemberSessions(db, actor, { userId: params.userId }));
