/**
 * The app's mail routes (/api/app/mail/…): internal, in the current workspace of the signed-in member. The list
 * and the messages are for those who send packages; the test message is the owner's.
 */
import { defineOperation } from "@/server/domain/operation";
import { ZPackageParams } from "@/server/domain/packages/schemas";
import { ZMailDetail, ZMailList, ZMailListQuery, ZMailParams, ZMailSummary, ZPackageMailList } from "./schemas";

const app = { tag: "App: mail", internal: true } as const;

export const appListMail = defineOperation({
  ...app,
  operationId: "appListMail",
  method: "GET",
  path: "/api/app/mail",
  summary: "The current workspace's messages, newest first, with their delivery status",
  permission: "canSendPackages",
  query: ZMailListQuery,
  response: ZMailList,
});

export const appGetMail = defineOperation({
  ...app,
  operationId: "appGetMail",
  method: "GET",
  path: "/api/app/mail/{messageId}",
  summary: "One message: its HTML and text parts, its links and its delivery status",
  permission: "canSendPackages",
  params: ZMailParams,
  response: ZMailDetail,
  errors: [404],
});

export const appSendTestMail = defineOperation({
  ...app,
  operationId: "appSendTestMail",
  method: "POST",
  path: "/api/app/mail/test",
  summary: "Queue a test message to the signed-in owner",
  ownerOnly: true,
  response: ZMailSummary,
  successStatus: 201,
});

export const appListPackageMail = defineOperation({
  ...app,
  operationId: "appListPackageMail",
  method: "GET",
  path: "/api/app/packages/{packageId}/mail",
  summary: "The package page's mail panel: every message about one package, oldest first, with its delivery status",
  permission: "canSendPackages",
  params: ZPackageParams,
  response: ZPackageMailList,
  errors: [404],
});
