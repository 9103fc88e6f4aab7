/**
 * The 402 and 403 rows of the spec's error table through the real pipeline: one case per plan feature
 * (public API on any route, webhooks, custom fields) and per 403 message (IP allowlist, including an
 * undeterminable address; missing permission; missing one of several; template access). The session-only 403
 * belongs to the app routes' wrapper (server/auth/session-route.ts) and is tested there.
 * The webhook and custom-field routes are not built yet, so test-only operations declare the same
 * requirements and go through `apiRoute` exactly as real routes will.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { organisations } from "@/server/db/schema";
import { apiRoute } from "@/server/http/api-route";
import { defineOperation, type TOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();

const ZOk = z.object({ ok: z.literal(true) });
type TNeeds = Pick<TOperation, "feature" | "permission" | "templateAccess">;
const testRoute = (operationId: string, path: `/api/v1${string}`, needs: TNeeds) =>
  apiRoute(defineOperation({ operationId, method: "GET", path, summary: "test only", tag: "Test", response: ZOk, ...needs }), async () => ({
    ok: true as const,
  }));

const webhooksRoute = testRoute("testWebhooks", "/api/v1/test/webhooks", { feature: "webhooks", permission: "canManageWebhooks" });
const customFieldsRoute = testRoute("testCustomFields", "/api/v1/test/custom-fields", { feature: "customFields" });
const sendRoute = testRoute("testSend", "/api/v1/test/send", { permission: "canSendPackages" });
const oneOfRoute = testRoute("testOneOf", "/api/v1/test/one-of", { permission: ["canSendPackages", "canViewAllPackages"] });
const templateEditRoute = testRoute("testTemplateEdit", "/api/v1/test/templates", { templateAccess: "CREATE" });

async function setPlan(org: TTestOrg, plan: Partial<typeof organisations.$inferInsert>) {
  await t.db.update(organisations).set(plan).where(eq(organisations.id, org.organisationId));
}

describe("402: the plan lacks a feature", () => {
  it("public API off: every route answers 402 naming it", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await setPlan(org, { featurePublicApi: false });
    for (const route of [getAccount, webhooksRoute, customFieldsRoute]) {
      const res = await callJson(route, { key: key.value });
      expect(res.status).toBe(402);
      expect(res.body).toEqual({ error: "Your plan does not include public API" });
    }
  });

  it("webhooks off: webhook routes answer 402, other routes still work", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect((await callJson(webhooksRoute, { key: key.value })).status).toBe(200);
    await setPlan(org, { featureWebhooks: false });
    const res = await callJson(webhooksRoute, { key: key.value });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: "Your plan does not include webhooks" });
    expect((await callJson(getAccount, { key: key.value })).status).toBe(200);
    expect((await callJson(customFieldsRoute, { key: key.value })).status).toBe(200);
  });

  it("custom fields off: the custom-fields route answers 402, other routes still work", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await setPlan(org, { featureCustomFields: false });
    const res = await callJson(customFieldsRoute, { key: key.value });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ error: "Your plan does not include custom fields" });
    expect((await callJson(webhooksRoute, { key: key.value })).status).toBe(200);
  });
});

describe("403 IP address not allowed", () => {
  it("refuses callers outside the allowlist and admits those inside (IPv4 and IPv6 ranges)", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect((await callJson(getAccount, { key: key.value, address: "198.51.100.7" })).status).toBe(200);
    await setPlan(org, { ipAllowlist: ["203.0.113.0/24", "2001:db8::/32"] });

    const refused = await callJson(getAccount, { key: key.value, address: "198.51.100.7" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "IP address not allowed" });
    expect((await callJson(getAccount, { key: key.value, address: "2001:db9::1" })).status).toBe(403);

    expect((await callJson(getAccount, { key: key.value, address: "203.0.113.9" })).status).toBe(200);
    expect((await callJson(getAccount, { key: key.value, address: "::ffff:203.0.113.9" })).status).toBe(200);
    expect((await callJson(getAccount, { key: key.value, address: "2001:db8:1::5" })).status).toBe(200);
  });

  it("refuses a request whose address cannot be determined", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await setPlan(org, { ipAllowlist: ["0.0.0.0/0", "::/0"] });
    expect((await callJson(getAccount, { key: key.value, address: "192.0.2.1" })).status).toBe(200);
    const res = await callJson(getAccount, { key: key.value, address: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "IP address not allowed" });
  });

  it("applies no restriction when the allowlist is empty, even without an address", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect((await callJson(getAccount, { key: key.value, address: null })).status).toBe(200);
  });
});

describe("403 permissions of the key's role", () => {
  it("Missing permission: <permission>", async () => {
    const org = await createTestOrg(t.db);
    const roleId = await createTestRole(t.db, org.organisationId, { canSendPackages: false });
    const key = await createTestKey(t.db, org, { roleId });
    const res = await callJson(sendRoute, { key: key.value });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Missing permission: canSendPackages" });
    const admin = await createTestKey(t.db, org);
    expect((await callJson(sendRoute, { key: admin.value })).status).toBe(200);
  });

  it("Missing permission: canManageWebhooks on a webhook route", async () => {
    const org = await createTestOrg(t.db);
    const roleId = await createTestRole(t.db, org.organisationId, { canSendPackages: true });
    const key = await createTestKey(t.db, org, { roleId });
    const res = await callJson(webhooksRoute, { key: key.value });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Missing permission: canManageWebhooks" });
  });

  it("Missing permission: one of … when any of several would do", async () => {
    const org = await createTestOrg(t.db);
    const none = await createTestKey(t.db, org, { roleId: await createTestRole(t.db, org.organisationId, {}) });
    const res = await callJson(oneOfRoute, { key: none.value });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Missing permission: one of canSendPackages, canViewAllPackages" });
    const viewer = await createTestKey(t.db, org, {
      roleId: await createTestRole(t.db, org.organisationId, { canViewAllPackages: true }),
    });
    expect((await callJson(oneOfRoute, { key: viewer.value })).status).toBe(200);
  });

  it("Insufficient template access: CREATE required", async () => {
    const org = await createTestOrg(t.db);
    const useOnly = await createTestKey(t.db, org, {
      roleId: await createTestRole(t.db, org.organisationId, { templateAccess: "USE" }),
    });
    const res = await callJson(templateEditRoute, { key: useOnly.value });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Insufficient template access: CREATE required" });
    const creator = await createTestKey(t.db, org, {
      roleId: await createTestRole(t.db, org.organisationId, { templateAccess: "CREATE" }),
    });
    expect((await callJson(templateEditRoute, { key: creator.value })).status).toBe(200);
  });
});
