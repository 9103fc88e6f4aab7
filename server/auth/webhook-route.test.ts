/**
 * Regression: the switcher's workspace cookie comes from the browser and may be malformed. A value that is
 * not valid percent-encoding (`foliosign_workspace=%E0`) made decodeURIComponent throw, so every app webhook
 * route answered 500; one decoding to a NUL character made the workspace query throw. Both must fall back to
 * the default workspace, like an unknown id does. Real route handler, real database; only the session
 * lookup is injected.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GET as listWebhooks } from "@/app/api/app/webhooks/route";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { setSessionLookup } from "./app-route";
import { webhookRoute } from "./webhook-route";
import { WORKSPACE_COOKIE, workspaceCookieFrom } from "./workspace-cookie";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

const withCookie = (value: string) =>
  new Request("http://localhost:3000/api/app/webhooks", { headers: { cookie: `a=1; ${WORKSPACE_COOKIE}=${value}; b=2` } });
const noParams = { params: Promise.resolve({}) };

describe("workspace cookie", () => {
  it("reads a well-formed value and treats a malformed one as no choice", () => {
    expect(workspaceCookieFrom(withCookie("ws_abc"))).toBe("ws_abc");
    expect(workspaceCookieFrom(withCookie("ws%5Fabc"))).toBe("ws_abc");
    expect(workspaceCookieFrom(withCookie("%E0"))).toBeNull();
    expect(workspaceCookieFrom(withCookie("ws%00"))).toBeNull();
    expect(workspaceCookieFrom(new Request("http://localhost:3000/"))).toBeNull();
  });

  it("a malformed cookie falls back to the default workspace on the app's webhook routes (no 500)", async () => {
    const org = await createTestOrg(t.db);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    setSessionLookup(async () => ownerActor(org));
    const whichWorkspace = webhookRoute({}, async ({ scope }) => scope.workspace.id);

    const chosen = await whichWorkspace(withCookie(other), noParams);
    expect(await chosen.json()).toEqual({ data: other });
    for (const value of ["%E0", "%00"]) {
      const res = await whichWorkspace(withCookie(value), noParams);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: org.workspaceId });
      expect((await listWebhooks(withCookie(value), noParams)).status).toBe(200);
    }
  });
});
