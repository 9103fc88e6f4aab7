/**
 * The app's door as route handlers meet it: the actor's workspace comes from the switcher's cookie, checked,
 * and the operation's declared gates (plan feature, permission, owner) apply exactly as on /api/v1.
 *
 * Regression: the switcher's workspace cookie comes from the browser and may be malformed. A value that is
 * not valid percent-encoding (`foliosign_workspace=%E0`) made decodeURIComponent throw, so every app webhook
 * route answered 500; one decoding to a NUL character made the workspace query throw. Both must fall back to
 * the default workspace, like an unknown id does. Real route handlers, real database; only the session
 * lookup is injected.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { GET as listWebhooks } from "@/app/api/app/webhooks/route";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listV1Webhooks } from "@/app/api/v1/webhooks/route";
import { organisations } from "@/server/db/schema";
import { defineOperation } from "@/server/domain/operation";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { appRoute, setSessionLookup } from "./app-route";
import { WORKSPACE_COOKIE, workspaceCookieFrom } from "./workspace-cookie";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

const withCookie = (value: string) => new Request("http://localhost:3000/api/app/webhooks", { headers: { cookie: `a=1; ${WORKSPACE_COOKIE}=${value}; b=2` } });
const noParams = { params: Promise.resolve({}) };

const whichWorkspace = appRoute(
  defineOperation({
    operationId: "testWhichWorkspace",
    method: "GET",
    path: "/api/app/test/workspace",
    summary: "t",
    tag: "Test",
    internal: true,
    response: z.string(),
  }),
  async ({ actor }) => actor.workspace.id,
);

describe("workspace cookie", () => {
  it("reads a well-formed value and treats a malformed one as no choice", () => {
    expect(workspaceCookieFrom(withCookie("ws_abc"))).toBe("ws_abc");
    expect(workspaceCookieFrom(withCookie("ws%5Fabc"))).toBe("ws_abc");
    expect(workspaceCookieFrom(withCookie("%E0"))).toBeNull();
    expect(workspaceCookieFrom(withCookie("ws%00"))).toBeNull();
    expect(workspaceCookieFrom(new Request("http://localhost:3000/"))).toBeNull();
  });

  it("chooses a workspace of the member's organisation; another organisation's or a malformed one falls back to the default (no 500)", async () => {
    const org = await createTestOrg(t.db);
    const stranger = await createTestOrg(t.db, "Stranger");
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));

    const chosen = await whichWorkspace(withCookie(other), noParams);
    expect(await chosen.json()).toEqual({ data: other });
    for (const value of ["%E0", "%00", stranger.workspaceId]) {
      const res = await whichWorkspace(withCookie(value), noParams);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: org.workspaceId });
      expect((await listWebhooks(withCookie(value), noParams)).status).toBe(200);
    }
  });
});

describe("gates on both doors", () => {
  it("a role without canManageWebhooks gets the same 403 from the app's and the API's webhook routes", async () => {
    const org = await createTestOrg(t.db);
    const roleId = await createTestRole(t.db, org.organisationId, { apiAccess: true, canManageWebhooks: false });
    const member = await createTestMember(t.db, org, roleId);
    setSessionLookup(async () => ({ userId: member.user.id, organisationId: org.organisationId }));
    const app = await listWebhooks(new Request("http://localhost:3000/api/app/webhooks"), noParams);
    const key = await createTestKey(t.db, org, { roleId });
    const api = await callJson(listV1Webhooks, { key: key.value });
    expect(app.status).toBe(403);
    expect(api.status).toBe(403);
    expect(await app.json()).toEqual(api.body);
    expect(api.body).toEqual({ error: "Missing permission: canManageWebhooks" });
  });

  it("a plan without webhooks answers 402 on the app's webhook routes too (it used to be checked on /api/v1 only)", async () => {
    const org = await createTestOrg(t.db);
    await t.db.update(organisations).set({ featureWebhooks: false }).where(eq(organisations.id, org.organisationId));
    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
    const res = await listWebhooks(new Request("http://localhost:3000/api/app/webhooks"), noParams);
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: "Your plan does not include webhooks" });
  });

  it("the public-API feature gates keys only: the app keeps working without it", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await t.db.update(organisations).set({ featurePublicApi: false }).where(eq(organisations.id, org.organisationId));
    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
    expect((await callJson(getAccount, { key: key.value })).status).toBe(402);
    expect((await listWebhooks(new Request("http://localhost:3000/api/app/webhooks"), noParams)).status).toBe(200);
  });

  it("a member removed since signing in is 401 at once", async () => {
    const org = await createTestOrg(t.db);
    setSessionLookup(async () => ({ userId: "usr_gone", organisationId: org.organisationId }));
    expect((await listWebhooks(new Request("http://localhost:3000/api/app/webhooks"), noParams)).status).toBe(401);
  });
});
