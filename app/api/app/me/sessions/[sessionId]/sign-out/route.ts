import { appRoute } from "@/server/auth/app-route";
import { endMySession } from "@/server/domain/member-sessions/end-my-session";
import { appEndMySession } from "@/server/domain/member-sessions/operations";

// POST /api/app/me/sessions/{sessionId}/sign-out – sign out one of the member's other sessions
export const POST = appRoute(appEndMySession, ({ db, actor, params }) => endMySession(db, actor, { id: params.sessionId }));
