import { appRoute } from "@/server/auth/app-route";
import { endMemberSession } from "@/server/domain/member-sessions/end-member-sessions";
import { appEndMemberSession } from "@/server/domain/member-sessions/operations";

// POST /api/app/members/{userId}/sessions/{sessionId}/sign-out – sign a member out of one session (owner only)
export const POST = appRoute(appEndMemberSession, ({ db, actor, params }) =>
  endMemberSession(db, actor, { userId: params.userId, sessionId: params.sessionId }),
);
