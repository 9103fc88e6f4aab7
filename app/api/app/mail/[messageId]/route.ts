import { appRoute } from "@/server/auth/app-route";
import { getMail } from "@/server/domain/mail/get-mail";
import { appGetMail } from "@/server/domain/mail/operations";

// GET /api/app/mail/{messageId} – one message: HTML and text parts, links, delivery status
export const GET = appRoute(appGetMail, ({ db, actor, params }) => getMail(db, actor, params));
