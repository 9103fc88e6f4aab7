/**
 * The /api/v1 pipeline end to end through a real route handler and a real database:
 * the success envelope, the error shape of the spec, request ids, and the response schema as a filter.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listWorkspaces } from "@/app/api/v1/workspaces/route";
import { users } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, getKey } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";

const t = useTestDb();

describe("apiRoute", () => {
  it("answers { data } with the key's account, a request id and rate-limit headers", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const res = await callJson<{ data: Record<string, { id: string }> }>(getAccount, { key: key.value });
    expect(res.status).toBe(200);
    expect(res.body.data.organisation!.id).toBe(org.organisationId);
    expect(res.body.data.workspace!.id).toBe(org.workspaceId);
    expect(res.body.data.issuedBy!.id).toBe(org.userId);
    expect(res.body.data.apiKey!.id).toBe(key.id);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-ratelimit-limit")).toBe("120");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("119");
  });

  it("answers 401 { error: Unauthorized } without a key, in the spec's shape", async () => {
    const res = await callRoute(getAccount);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  it("lists exactly the key's own workspace as active", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const res = await callJson<{ data: { active: string; workspaces: { id: string; isDefault: boolean }[] } }>(listWorkspaces, { key: key.value });
    expect(res.body.data.active).toBe(org.workspaceId);
    expect(res.body.data.workspaces).toEqual([{ id: org.workspaceId, name: "Default", slug: "default", isDefault: true, test: false }]);
  });

  /*
   * Pins GET /api/v1/account to design/api-map.md exactly: organisation {id,name}, workspace {id,name,slug},
   * role {id,name,permissions}, issuedBy {id,email,name}, apiKey {id,name,prefix} — nothing more (no plan
   * features, allowlist, isDefault, key hash or timestamps leaking from the context), nothing less.
   */
  it("GET /api/v1/account answers exactly the documented shape", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org, { name: "CRM sync" });
    const stored = await getKey(t.db, org.organisationId, key.id);
    const [owner] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, org.userId));
    const res = await callJson(getAccount, { key: key.value });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        organisation: { id: org.organisationId, name: "Acme" },
        workspace: { id: org.workspaceId, name: "Default", slug: "default", test: false },
        role: {
          id: org.roleIds.admin,
          name: "Admin",
          permissions: { apiAccess: true, canSendPackages: true, canViewAllPackages: true, canManageWebhooks: true, templateAccess: "CREATE" },
        },
        issuedBy: { id: org.userId, email: owner!.email, name: "Acme Owner" },
        apiKey: { id: key.id, name: "CRM sync", prefix: stored!.prefix },
      },
    });
    expect(key.value.startsWith(stored!.prefix)).toBe(true);
  });
});
