/**
 * GET /api/app/me answers the signed-in member as loaded from the database (not what the session claims):
 * the owner with every permission, a member with their role's, in the workspace the switcher chose. PATCH
 * changes the member's own name.
 */
import { afterEach, describe, expect, it } from "vitest";
import { setSessionLookup } from "@/server/auth/app-route";
import { WORKSPACE_COOKIE } from "@/server/auth/workspace-cookie";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestOrg, createTestWorkspace } from "@/server/test/factories";
import { GET as me, PATCH as rename } from "./route";
import { eq } from "drizzle-orm";
import { auditEvents, users } from "@/server/db/schema";
import { callApp } from "@/server/test/app-http";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

const get = (cookie?: string) => me(new Request("http://localhost:3000/api/app/me", { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({}) });

describe("GET /api/app/me", () => {
  it("answers the owner, the organisation, the current workspace and the effective role", async () => {
    const org = await createTestOrg(t.db);
    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
    const res = await get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: {
        user: { id: org.userId, email: expect.any(String), name: "Acme Owner" },
        isOwner: true,
        organisation: { id: org.organisationId, name: expect.any(String) },
        workspace: { id: org.workspaceId, name: "Default", slug: "default", isDefault: true, test: false },
        role: {
          id: org.roleIds.admin,
          name: "Admin",
          permissions: { canSendPackages: true, canViewAllPackages: true, canManageWebhooks: true, templateAccess: "CREATE" },
        },
      },
    });
  });

  it("answers a member with their role's permissions, in the workspace the switcher chose; nobody is 401", async () => {
    const org = await createTestOrg(t.db);
    const emea = await createTestWorkspace(t.db, org.organisationId, "emea");
    const member = await createTestMember(t.db, org, org.roleIds.viewer);
    setSessionLookup(async () => ({ userId: member.user.id, organisationId: org.organisationId }));
    const { data } = (await (await get(`${WORKSPACE_COOKIE}=${emea}`)).json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({
      user: { id: member.user.id },
      workspace: { id: emea, slug: "emea", isDefault: false },
      isOwner: false,
      role: { name: "Viewer", permissions: { canSendPackages: false, canViewAllPackages: false, canManageWebhooks: false, templateAccess: "USE" } },
    });
    expect(Object.keys(data).sort()).toEqual(["isOwner", "organisation", "role", "user", "workspace"]);
    setSessionLookup(async () => null);
    expect((await get()).status).toBe(401);
  });
});

describe("PATCH /api/app/me", () => {
  it("renames the signed-in member (trimmed), with its audit event; an empty name is 422 at name and writes nothing", async () => {
    const org = await createTestOrg(t.db);
    const as = { userId: org.userId, organisationId: org.organisationId };
    expect(await callApp(rename, { as, body: { name: "  Olga Owner  " } })).toEqual({ status: 200, body: { data: { name: "Olga Owner" } } });
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, org.userId));
    expect(row!.name).toBe("Olga Owner");
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, "member.renamed"));
    expect(event).toMatchObject({ subjectId: org.userId, data: { from: "Acme Owner", to: "Olga Owner" } });
    expect(await callApp(rename, { as, body: { name: "   " } })).toMatchObject({ status: 422, body: { details: { name: ["Name is required"] } } });
    expect((await t.db.select().from(users).where(eq(users.id, org.userId)))[0]!.name).toBe("Olga Owner");
    expect((await callApp(rename, { as: null, body: { name: "Eve" } })).status).toBe(401);
  });
});
