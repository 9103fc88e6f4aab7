import { appRoute } from "@/server/auth/app-route";
import { appSendTestMail } from "@/server/domain/mail/operations";
import { sendTestMail } from "@/server/domain/mail/send-test-mail";

// POST /api/app/mail/test – queue a test message to the signed-in owner
export const POST = appRoute(appSendTestMail, ({ db, actor }) => sendTestMail(db, actor));
