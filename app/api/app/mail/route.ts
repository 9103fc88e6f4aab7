import { appRoute } from "@/server/auth/app-route";
import { listMail } from "@/server/domain/mail/list-mail";
import { appListMail } from "@/server/domain/mail/operations";

// GET /api/app/mail – the current workspace's messages, newest first, with their delivery status
export const GET = appRoute(appListMail, ({ db, actor, query }) => listMail(db, actor, query));
