import { appRoute } from "@/server/auth/app-route";
import { endMyOtherSessions } from "@/server/domain/member-sessions/end-my-other-sessions";
import { appEndMyOtherSessions } from "@/server/domain/member-sessions/operations";

// POST /api/app/me/sessions/sign-out-others – sign out every session of the member's but this one
export const POST = appRoute(appEndMyOtherSessions, ({ db, actor }) => endMyOtherSessions(db, actor));
