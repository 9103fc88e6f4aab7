/**
 * Embedded signing (issue 23, item 3; docs/decisions/embedded-signing.md) through the real route handlers on a
 * real database (PGlite, and PostgreSQL with DATABASE_URL): the workspace's embed origins (strict validation with
 * exact `details` paths, the gates, the workspace boundary), the embedded signing URL (422 off the list, single
 * use, 5 minutes, the session's own link untouched), the opened session bound to its cookie (cross-site cookie
 * attributes, 60 minutes, a wrong or missing cookie is a 404), the frame policy of each page, the code check
 * inside a frame, and the audit trail.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as getOriginsRoute, PUT as putOriginsRoute } from "@/app/api/v1/settings/embed-origins/route";
import { GET as appGetOriginsRoute, PUT as appPutOriginsRoute } from "@/app/api/app/settings/embed-origins/route";
import { POST as signingUrlRoute } from "@/app/api/v1/packages/[packageId]/signing-url/route";
import { GET as auditRoute } from "@/app/api/v1/packages/[packageId]/audit-events/route";
import { GET as viewRoute } from "@/app/api/app/sign/[token]/route";
import { POST as checkRoute } from "@/app/api/app/sign/[token]/authentication/route";
import { POST as consentRoute } from "@/app/api/app/sign/[token]/consent/route";
import { POST as finishRoute } from "@/app/api/app/sign/[token]/finish/route";
import { PUT as fieldRoute } from "@/app/api/app/sign/[token]/fields/[fieldId]/route";
import { GET as openRoute } from "@/app/embed/sign/[token]/route";
import { embedLinks, recipientSessions } from "@/server/db/schema";
import { framePolicyFor } from "@/server/http/frame-policy";
import { setClock } from "@/server/lib/clock";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestRole, createTestWorkspace } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";
import { sendLeasePackage, signerTestOrg, type TBody } from "@/server/test/signer-auth-package";

const t = useTestDb();
const T0 = new Date("2031-06-01T09:00:00Z");
let clock = T0;
const tick = (minutes: number) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};
afterEach(() => setClock(undefined));

const HOST = "https://app.example.com";
type TView = { state: string; fields?: { id: string; type: string }[]; authentication?: { method: string } };

async function setup() {
  clock = T0;
  setClock(() => clock);
  return signerTestOrg(t.db);
}

async function sentPackage(recipient: Record<string, unknown> = {}) {
  const base = await setup();
  const { packageId, created } = await sendLeasePackage(base.key, base.tpl.templateId, [
    { email: "tina@example.com", name: "Tina Tenant", roleIndex: 0, ...recipient },
    { email: "lars@example.com", name: "Lars Landlord", roleIndex: 1 },
  ]);
  expect((await callJson(putOriginsRoute, { key: base.key, body: { origins: [HOST] } })).status).toBe(200);
  return { ...base, packageId, sessionId: created.data.recipientSessions[0]!.id };
}

const embedUrl = (key: string, packageId: string, sessionId: string, origin = HOST) =>
  callJson<TBody<{ url: string; expiresAt: string }>>(signingUrlRoute, { key, params: { packageId }, body: { sessionId, embed: { origin } } });

/** Opens the URL as the frame would: its answer, the page it sends the frame to, and the embed cookie. */
async function open(url: string) {
  const token = new URL(url).pathname.split("/").at(-1)!;
  const res = await openToken(token);
  const setCookie = res.headers.get("set-cookie");
  return {
    res,
    handle: res.headers.get("location")?.split("/").at(-1) ?? null,
    setCookie,
    cookie: setCookie ? setCookie.split(";")[0]! : undefined,
  };
}

/** GET /embed/sign/{token}: a plain route handler (not an operation of either door). */
const openToken = (token: string) =>
  openRoute(new Request(`http://localhost:3000/embed/sign/${token}`, { headers: { "user-agent": "frame test" } }), { params: Promise.resolve({ token }) });

const view = (handle: string, cookie?: string) => callJson<TBody<TView>>(viewRoute, { params: { token: handle }, headers: cookie ? { cookie } : {} });

describe("embed origins", () => {
  it("replaces and reads the list, sorted, through both doors", async () => {
    const { org, key } = await setup();
    expect(await callJson(getOriginsRoute, { key })).toMatchObject({ status: 200, body: { data: { origins: [] } } });
    const put = await callJson(putOriginsRoute, { key, body: { origins: ["https://b.example.com", "http://127.0.0.1:4100", "https://a.example.com:8443"] } });
    expect(put).toMatchObject({ status: 200, body: { data: { origins: ["http://127.0.0.1:4100", "https://a.example.com:8443", "https://b.example.com"] } } });
    const owner = { userId: org.userId, organisationId: org.organisationId };
    expect((await callApp(appGetOriginsRoute, { as: owner })).body).toEqual({
      data: { origins: ["http://127.0.0.1:4100", "https://a.example.com:8443", "https://b.example.com"] },
    });
    expect((await callApp(appPutOriginsRoute, { as: owner, body: { origins: [] } })).body).toEqual({ data: { origins: [] } });
    expect((await callJson(getOriginsRoute, { key })).body).toEqual({ data: { origins: [] } });
  });

  it("refuses anything but an exact https (or loopback http) origin, naming each by index", async () => {
    const { key } = await setup();
    const cases: [string, string][] = [
      ["https://app.example.com/", "Only the scheme, host and port, exactly: https://app.example.com"],
      ["https://app.example.com/embed", "Only the scheme, host and port, exactly: https://app.example.com"],
      ["https://app.example.com?x=1", "Only the scheme, host and port, exactly: https://app.example.com"],
      ["https://*.example.com", "Wildcards are not allowed: list each origin"],
      ["*", "Wildcards are not allowed: list each origin"],
      ["http://app.example.com", "Only https origins (or http on a loopback host)"],
      ["http://10.0.0.5:3000", "Only https origins (or http on a loopback host)"],
      ["ftp://app.example.com", "Only https origins (or http on a loopback host)"],
      ["app.example.com", "Enter an origin such as https://app.example.com"],
      ["https://App.Example.com", "Only the scheme, host and port, exactly: https://app.example.com"],
      ["https://app.example.com:443", "Write it as https://app.example.com"],
      ["https://user:pw@app.example.com", "An origin has no user name or password"],
      ["null", "Enter an origin such as https://app.example.com"],
    ];
    for (const [origin, message] of cases) {
      const res = await callJson<TBody>(putOriginsRoute, { key, body: { origins: [HOST, origin] } });
      expect(res.status, origin).toBe(422);
      expect(res.body.details, origin).toEqual({ "origins.1": [message] });
    }
    const twice = await callJson<TBody>(putOriginsRoute, { key, body: { origins: [HOST, "http://localhost:4000", HOST] } });
    expect(twice).toMatchObject({ status: 422, body: { details: { "origins.2": ["Listed twice"] } } });
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`);
    expect((await callJson<TBody>(putOriginsRoute, { key, body: { origins: many } })).body.details).toEqual({ origins: ["At most 20 origins"] });
    expect((await callJson<TBody>(putOriginsRoute, { key, body: {} })).body.details).toEqual({ origins: ["Required: expected array"] });
    // Loopback http and IPv6 loopback are fine; nothing was stored by the refusals.
    expect((await callJson(putOriginsRoute, { key, body: { origins: ["http://[::1]:4000", "http://localhost:4000"] } })).status).toBe(200);
    expect((await callJson(getOriginsRoute, { key })).body).toEqual({ data: { origins: ["http://[::1]:4000", "http://localhost:4000"] } });
  });

  it("lets senders read and only integration managers change the list, per workspace", async () => {
    const { org, key } = await setup();
    const sender = (await createTestKey(t.db, org, { roleId: await createTestRole(t.db, org.organisationId, { canSendPackages: true }) })).value;
    const viewer = (await createTestKey(t.db, org, { roleId: await createTestRole(t.db, org.organisationId, {}) })).value;
    expect((await callJson(putOriginsRoute, { key, body: { origins: [HOST] } })).status).toBe(200);
    expect((await callJson(getOriginsRoute, { key: sender })).status).toBe(200);
    expect((await callJson(putOriginsRoute, { key: sender, body: { origins: [] } })).status).toBe(403);
    expect((await callJson(getOriginsRoute, { key: viewer })).status).toBe(403);
    const other = await createTestWorkspace(t.db, org.organisationId, "other");
    const otherKey = (await createTestKey(t.db, org, { workspaceId: other })).value;
    expect((await callJson(getOriginsRoute, { key: otherKey })).body).toEqual({ data: { origins: [] } });
  });
});

describe("embedded signing URL", () => {
  it("needs a listed origin (422 at embed.origin) and leaves the session's own link alone", async () => {
    const s = await sentPackage();
    const before = (await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.sessionId)))[0]!;
    const refused = await embedUrl(s.key, s.packageId, s.sessionId, "https://evil.example.com");
    expect(refused).toMatchObject({
      status: 422,
      body: { details: { "embed.origin": ["Not one of this workspace's embed origins (PUT /settings/embed-origins)"] } },
    });
    const empty = await callJson<TBody>(signingUrlRoute, { key: s.key, params: { packageId: s.packageId }, body: { sessionId: s.sessionId, embed: {} } });
    expect(empty).toMatchObject({ status: 422, body: { details: { "embed.origin": ["Required: expected string"] } } });
    const made = await embedUrl(s.key, s.packageId, s.sessionId);
    expect(made.status).toBe(200);
    expect(made.body.data.url).toMatch(/^http:\/\/localhost:3000\/embed\/sign\/[A-Za-z0-9_-]{43}$/);
    expect(made.body.data.expiresAt).toBe(new Date(T0.getTime() + 5 * 60_000).toISOString());
    const after = (await t.db.select().from(recipientSessions).where(eq(recipientSessions.id, s.sessionId)))[0]!;
    expect(after.tokenHash).toBe(before.tokenHash);
    // Not for a session whose turn it is not (the second package recipient is fine, a made-up one is 404).
    expect((await embedUrl(s.key, s.packageId, "rs_missing")).status).toBe(404);
  });

  it("is used up by its first opening, which binds the signing to a cross-site cookie; a second opening gets no cookie", async () => {
    const s = await sentPackage();
    const { url } = (await embedUrl(s.key, s.packageId, s.sessionId)).body.data;
    const first = await open(url);
    expect(first.res.status).toBe(303);
    expect(first.res.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/embed\/s\/emb_[0-9a-f]{44}$/);
    expect(first.res.headers.get("content-security-policy")).toBe(`frame-ancestors ${HOST}`);
    expect(first.res.headers.get("cache-control")).toBe("no-store");
    expect(first.setCookie).toMatch(new RegExp(`^foliosign_embed_${first.handle}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; Secure; SameSite=None; Partitioned$`));
    const second = await open(url);
    expect(second.res.status).toBe(303);
    expect(second.handle).toBe(first.handle);
    expect(second.setCookie).toBeNull();

    // The page's steps work with the cookie only: none, or another link's, is the same 404 as a wrong token.
    expect((await view(first.handle!, first.cookie)).body.data.state).toBe("OPEN");
    expect((await view(first.handle!)).status).toBe(404);
    expect((await view(first.handle!, `${first.cookie}x`)).status).toBe(404);
    const { url: url2 } = (await embedUrl(s.key, s.packageId, s.sessionId)).body.data;
    const other = await open(url2);
    expect((await view(first.handle!, other.cookie!.replace(other.handle!, first.handle!))).status).toBe(404);
    expect((await view(other.handle!, other.cookie)).status).toBe(200);

    // Sign and finish inside the frame.
    const fields = (await view(first.handle!, first.cookie)).body.data.fields!;
    const headers = { cookie: first.cookie!, "user-agent": "frame test" };
    expect((await callJson(consentRoute, { params: { token: first.handle! }, headers })).status).toBe(200);
    const signature = fields.find((f) => f.type === "signature")!;
    expect((await callJson(fieldRoute, { params: { token: first.handle!, fieldId: signature.id }, body: { value: "Tina Tenant" }, headers })).status).toBe(200);
    const done = await callJson<TBody<{ state: string; reason: string }>>(finishRoute, { params: { token: first.handle! }, headers });
    expect(done).toMatchObject({ status: 200, body: { data: { state: "CLOSED", reason: "FINISHED" } } });

    const audit = await callJson<TBody<{ auditEvents: { action: string }[] }>>(auditRoute, { key: s.key, params: { packageId: s.packageId } });
    const actions = audit.body.data.auditEvents.map((e) => e.action);
    expect(actions.filter((a) => a === "recipient.embed_opened")).toHaveLength(2);
    expect(actions).toContain("session.completed");
    expect(JSON.stringify(audit.body)).not.toContain(new URL(url).pathname.split("/").at(-1)!);
  });

  it("expires: the URL after 5 minutes unopened, the opened session after 60", async () => {
    const s = await sentPackage();
    const { url } = (await embedUrl(s.key, s.packageId, s.sessionId)).body.data;
    tick(5);
    const late = await open(url);
    expect(late.res.status).toBe(303);
    expect(late.setCookie).toBeNull();
    const { url: fresh } = (await embedUrl(s.key, s.packageId, s.sessionId)).body.data;
    tick(4);
    const opened = await open(fresh);
    expect((await view(opened.handle!, opened.cookie)).status).toBe(200);
    tick(59);
    expect((await view(opened.handle!, opened.cookie)).status).toBe(200);
    tick(1);
    expect((await view(opened.handle!, opened.cookie)).status).toBe(404);
    const unknown = await openToken("x".repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
  });

  it("keeps a recipient's code check inside the frame; the pass is a cross-site cookie", async () => {
    const s = await sentPackage({ authentication: { method: "ACCESS_CODE", accessCode: "blue-heron-42" } });
    const opened = await open((await embedUrl(s.key, s.packageId, s.sessionId)).body.data.url);
    expect((await view(opened.handle!, opened.cookie)).body.data).toMatchObject({
      state: "AUTHENTICATION_REQUIRED",
      authentication: { method: "ACCESS_CODE" },
    });
    expect((await callJson(consentRoute, { params: { token: opened.handle! }, headers: { cookie: opened.cookie! } })).status).toBe(403);
    const passed = await callRoute(checkRoute, { params: { token: opened.handle! }, body: { code: "blue-heron-42" }, headers: { cookie: opened.cookie! } });
    expect(passed.status).toBe(200);
    const pass = passed.headers.get("set-cookie")!;
    expect(pass).toMatch(new RegExp(`^foliosign_signer_${s.sessionId}=[^;]+; Path=/; HttpOnly; Secure; SameSite=None; Partitioned$`));
    const both = `${opened.cookie}; ${pass.split(";")[0]}`;
    expect((await view(opened.handle!, both)).body.data.state).toBe("OPEN");
  });
});

describe("frame policy", () => {
  it("lets only the link's origin frame an embedded page; every other page is 'none'", async () => {
    const s = await sentPackage();
    const opened = await open((await embedUrl(s.key, s.packageId, s.sessionId)).body.data.url);
    expect(await framePolicyFor(`/embed/s/${opened.handle}`)).toBe(`frame-ancestors ${HOST}`);
    expect(await framePolicyFor(`/embed/s/emb_${"0".repeat(44)}`)).toBe("frame-ancestors 'none'");
    expect(await framePolicyFor("/sign/abc")).toBe("frame-ancestors 'none'");
    expect(await framePolicyFor("/packages")).toBe("frame-ancestors 'none'");
    // The link keeps its origin when the list changes later.
    expect((await callJson(putOriginsRoute, { key: s.key, body: { origins: [] } })).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(embedLinks)
      .where(and(eq(embedLinks.id, opened.handle!)));
    expect(row!.origin).toBe(HOST);
  });
});
