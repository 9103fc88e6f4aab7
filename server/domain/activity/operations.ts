/**
 * The organisation's activity (the app's own route, internal): who changed members, roles, keys, workspaces,
 * webhook endpoints and the organisation's settings, read from the audit trail. Owner only.
 */
import { defineOperation } from "@/server/domain/operation";
import { ZActivityList, ZActivityQuery } from "./schemas";

export const appListActivity = defineOperation({
  tag: "App: organisation",
  internal: true,
  ownerOnly: true,
  operationId: "appListActivity",
  method: "GET",
  path: "/api/app/activity",
  summary: "The organisation's administrative changes, newest first (members, roles, keys, workspaces, webhooks, settings)",
  query: ZActivityQuery,
  response: ZActivityList,
});
