/**
 * Signed-in sessions: the member's own, on the Account page (internal; any signed-in member, for themselves), and the
 * owner signing a member out of one session or everywhere from Members.
 */
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import { ZMemberParams } from "@/server/domain/organisation/schemas";
import { ZEndedMemberSession, ZEndedOtherSessions, ZMemberSession, ZMemberSessionParams, ZMyFailedSignIns } from "./schemas";

const app = { tag: "App: your sessions", internal: true } as const;

export const appListMySessions = defineOperation({
  ...app,
  operationId: "appListMySessions",
  method: "GET",
  path: "/api/app/me/sessions",
  summary: "Where you are signed in: this session first, then the others by last activity (at most 100)",
  response: z.array(ZMemberSession),
});

export const appEndMySession = defineOperation({
  ...app,
  operationId: "appEndMySession",
  method: "POST",
  path: "/api/app/me/sessions/{sessionId}/sign-out",
  summary: "Sign out one of your other sessions: its next request is signed out (409 for this session: sign out instead)",
  params: ZMemberSessionParams,
  response: ZEndedMemberSession,
  errors: [404, 409],
});

export const appEndMyOtherSessions = defineOperation({
  ...app,
  operationId: "appEndMyOtherSessions",
  method: "POST",
  path: "/api/app/me/sessions/sign-out-others",
  summary: "Sign out every session of yours but this one",
  response: ZEndedOtherSessions,
  errors: [409],
});

export const appListMyFailedSignIns = defineOperation({
  ...app,
  operationId: "appListMyFailedSignIns",
  method: "GET",
  path: "/api/app/me/failed-sign-ins",
  summary: "Wrong passwords given for your address in the last 30 days: how many, and the newest 10 (when, from where, which browser)",
  response: ZMyFailedSignIns,
});

export const appListMemberSessions = defineOperation({
  tag: "App: organisation",
  internal: true,
  ownerOnly: true,
  operationId: "appListMemberSessions",
  method: "GET",
  path: "/api/app/members/{userId}/sessions",
  summary: "Where a member is signed in: their sessions by last activity (at most 100), for the owner (404 non-member)",
  params: ZMemberParams,
  response: z.array(ZMemberSession),
  errors: [404],
});

export const appEndMemberSessions = defineOperation({
  tag: "App: organisation",
  internal: true,
  ownerOnly: true,
  operationId: "appEndMemberSessions",
  method: "POST",
  path: "/api/app/members/{userId}/sessions/sign-out",
  summary: "Sign a member out everywhere: every session of theirs ends at its next request (their password still works)",
  params: ZMemberParams,
  response: ZEndedOtherSessions,
  errors: [404, 409],
});

export const appEndMemberSession = defineOperation({
  tag: "App: organisation",
  internal: true,
  ownerOnly: true,
  operationId: "appEndMemberSession",
  method: "POST",
  path: "/api/app/members/{userId}/sessions/{sessionId}/sign-out",
  summary: "Sign a member out of one session: its next request is signed out, their other sessions keep working",
  params: ZMemberParams.extend(ZMemberSessionParams.shape),
  response: ZEndedMemberSession,
  errors: [404, 409],
});
