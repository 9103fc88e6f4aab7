import { appRoute } from "@/server/auth/app-route";
import { appChangePassword } from "@/server/domain/organisation/operations";
import { changeOwnPassword } from "@/server/auth/own-password";

// POST /api/app/me/password – change the signed-in member's password; every other session of theirs ends
export const POST = appRoute(appChangePassword, ({ db, actor, body }) => changeOwnPassword(db, actor, body));
