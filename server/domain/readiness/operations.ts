/** The Readiness page's route (/api/app/readiness/…): internal, owners only. The checks themselves run in the page. */
import { defineOperation } from "@/server/domain/operation";
import { ZReadinessTestMessage } from "./schemas";

export const appSendReadinessTestMessage = defineOperation({
  tag: "App: readiness",
  internal: true,
  operationId: "appSendReadinessTestMessage",
  method: "POST",
  path: "/api/app/readiness/test-message",
  summary: "Send one real test message through SMTP_URL to the signed-in owner, now, and report the server's answer",
  ownerOnly: true,
  response: ZReadinessTestMessage,
});
