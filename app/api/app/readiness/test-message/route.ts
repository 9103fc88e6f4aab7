import { appRoute } from "@/server/auth/app-route";
import { appSendReadinessTestMessage } from "@/server/domain/readiness/operations";
import { sendTestMessage } from "@/server/domain/readiness/send-test-message";

// POST /api/app/readiness/test-message – send a real test message through SMTP to the signed-in owner
export const POST = appRoute(appSendReadinessTestMessage, ({ db, actor }) => sendTestMessage(db, actor));
