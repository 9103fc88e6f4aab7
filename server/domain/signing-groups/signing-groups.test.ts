/**
 * Signing groups through their real handlers: the public list (op 51: every group of the key's workspace,
 * by name, with members), and the app's management — create (409 on a taken name, ignoring case; 422 on bad
 * members), rename, delete (a template role naming the group loses the link), add and remove members (409 on
 * a duplicate, 404 on an unknown member) — with the template-access gate and the workspace boundary (404).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listApi } from "@/app/api/v1/signing-groups/route";
import { GET as listApp, POST as create } from "@/app/api/app/signing-groups/route";
import { DELETE as remove, PATCH as rename } from "@/app/api/app/signing-groups/[groupId]/route";
import { POST as addMember } from "@/app/api/app/signing-groups/[groupId]/members/route";
import { DELETE as removeMember } from "@/app/api/app/signing-groups/[groupId]/members/[memberId]/route";
import { auditEvents, templateRoles, templates } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { callApp } from "@/server/test/app-http";
import { createTestMember } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import type { TSigningGroup } from "./schemas";

const t = useTestDb();
const owner = (org: TTestOrg) => ({ userId: org.userId, organisationId: org.organisationId });
type TData<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function createGroup(org: TTestOrg, body: unknown, workspaceId?: string) {
  const res = await callApp<TData<TSigningGroup>>(create, { as: owner(org), body, workspaceId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("GET /api/v1/signing-groups", () => {
  it("lists every group of the key's workspace by name, each with its members by email", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect(await callJson(listApi, { key: key.value })).toEqual({ status: 200, headers: expect.anything(), body: { data: { signingGroups: [] } } });

    await createGroup(org, { name: "Legal", members: [{ email: "Zoe@Example.com", name: "Zoe" }, { email: "adam@example.com" }] });
    await createGroup(org, { name: "Finance" });
    await createGroup(org, { name: "board" });
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    await createGroup(org, { name: "Elsewhere" }, siblingId);

    const res = await callJson<TData<{ signingGroups: TSigningGroup[] }>>(listApi, { key: key.value });
    expect(res.status).toBe(200);
    // By name ignoring case, whatever the database's collation; the sibling workspace's group is not there.
    expect(res.body.data.signingGroups.map((g) => g.name)).toEqual(["board", "Finance", "Legal"]);
    const legal = res.body.data.signingGroups.find((g) => g.name === "Legal")!;
    expect(legal.members).toEqual([
      { id: expect.any(String), email: "adam@example.com", name: null },
      { id: expect.any(String), email: "zoe@example.com", name: "Zoe" },
    ]);

    const siblingKey = await createTestKey(t.db, org, { workspaceId: siblingId });
    const theirs = await callJson<TData<{ signingGroups: TSigningGroup[] }>>(listApi, { key: siblingKey.value });
    expect(theirs.body.data.signingGroups.map((g) => g.name)).toEqual(["Elsewhere"]);
  });
});

describe("the app's signing groups", () => {
  it("create: 201 with audit; a taken name (any case) is 409; bad input is 422 by path", async () => {
    const org = await createTestOrg(t.db);
    const group = await createGroup(org, { name: "  Sales  ", members: [{ email: "a@example.com", name: "A" }] });
    expect(group).toMatchObject({ name: "Sales", members: [{ email: "a@example.com", name: "A" }] });
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, group.id));
    expect(audits.map((a) => [a.action, a.actorUserId, a.workspaceId])).toEqual([["signing_group.created", org.userId, org.workspaceId]]);

    for (const name of ["Sales", "SALES"]) {
      expect(await callApp(create, { as: owner(org), body: { name } })).toEqual({
        status: 409,
        body: { error: `A signing group named "${name}" already exists in this workspace` },
      });
    }
    // The same name in another workspace is fine.
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    await createGroup(org, { name: "Sales" }, siblingId);

    const bad = await callApp(create, {
      as: owner(org),
      body: { name: "", members: [{ email: "nope" }, { email: "b@example.com" }, { email: "B@example.com" }] },
    });
    expect(bad).toMatchObject({
      status: 422,
      body: {
        details: { name: ["Enter a name"], "members.0.email": ["Enter a valid email address"], "members.2.email": ["Each email address may appear once"] },
      },
    });
  });

  it("rename: 200, 409 on a taken name, 404 in another workspace; its own name in another case is fine", async () => {
    const org = await createTestOrg(t.db);
    const a = await createGroup(org, { name: "Alpha" });
    await createGroup(org, { name: "Beta" });
    const ok = await callApp<TData<TSigningGroup>>(rename, { as: owner(org), params: { groupId: a.id }, body: { name: "ALPHA" } });
    expect(ok).toMatchObject({ status: 200, body: { data: { id: a.id, name: "ALPHA" } } });
    expect(await callApp(rename, { as: owner(org), params: { groupId: a.id }, body: { name: "beta" } })).toEqual({
      status: 409,
      body: { error: 'A signing group named "beta" already exists in this workspace' },
    });
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    expect(await callApp(rename, { as: owner(org), params: { groupId: a.id }, body: { name: "Gamma" }, workspaceId: siblingId })).toEqual({
      status: 404,
      body: { error: "Signing group not found" },
    });
  });

  it("members: add (lower-cased, 409 when already there), remove (404 when unknown), both audited", async () => {
    const org = await createTestOrg(t.db);
    const g = await createGroup(org, { name: "Ops" });
    const added = await callApp<TData<TSigningGroup>>(addMember, {
      as: owner(org),
      params: { groupId: g.id },
      body: { email: " Kim@Example.com ", name: "Kim" },
    });
    expect(added).toMatchObject({ status: 201, body: { data: { members: [{ email: "kim@example.com", name: "Kim" }] } } });
    expect(await callApp(addMember, { as: owner(org), params: { groupId: g.id }, body: { email: "KIM@example.com" } })).toEqual({
      status: 409,
      body: { error: "kim@example.com is already a member of this group" },
    });
    expect((await callApp(addMember, { as: owner(org), params: { groupId: g.id }, body: { email: "x" } })).status).toBe(422);
    const memberId = added.body.data.members[0]!.id;
    expect(await callApp(removeMember, { as: owner(org), params: { groupId: g.id, memberId: "sgm_nope" } })).toEqual({
      status: 404,
      body: { error: "Signing group member not found" },
    });
    const other = await createGroup(org, { name: "Other" });
    // A member id of another group is not found through this group.
    expect((await callApp(removeMember, { as: owner(org), params: { groupId: other.id, memberId } })).status).toBe(404);
    const removed = await callApp<TData<TSigningGroup>>(removeMember, { as: owner(org), params: { groupId: g.id, memberId } });
    expect(removed).toMatchObject({ status: 200, body: { data: { id: g.id, members: [] } } });
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, g.id))).map((a) => a.action).sort();
    expect(actions).toEqual(["signing_group.created", "signing_group.member_added", "signing_group.member_removed"]);

    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    expect((await callApp(addMember, { as: owner(org), params: { groupId: g.id }, body: { email: "z@example.com" }, workspaceId: siblingId })).status).toBe(
      404,
    );
  });

  it("delete: 200, then 404; a template role that named the group loses the link", async () => {
    const org = await createTestOrg(t.db);
    const g = await createGroup(org, { name: "Signers", members: [{ email: "s@example.com" }] });
    const templateId = newId("tpl");
    await t.db.insert(templates).values({ id: templateId, organisationId: org.organisationId, workspaceId: org.workspaceId, name: "T" });
    await t.db.insert(templateRoles).values({ id: newId("trole"), templateId, position: 0, name: "Signer", signingGroupId: g.id });
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    expect((await callApp(remove, { as: owner(org), params: { groupId: g.id }, workspaceId: siblingId })).status).toBe(404);
    expect(await callApp(remove, { as: owner(org), params: { groupId: g.id } })).toEqual({ status: 200, body: { data: { id: g.id, deleted: true } } });
    expect((await callApp(remove, { as: owner(org), params: { groupId: g.id } })).status).toBe(404);
    const [role] = await t.db.select().from(templateRoles).where(eq(templateRoles.templateId, templateId));
    expect(role!.signingGroupId).toBeNull();
    const listed = await callApp<TData<{ signingGroups: TSigningGroup[] }>>(listApp, { as: owner(org) });
    expect(listed.body.data.signingGroups).toEqual([]);
  });

  it("any member reads; managing needs template access CREATE", async () => {
    const org = await createTestOrg(t.db);
    const g = await createGroup(org, { name: "G" });
    const useRole = await createTestRole(t.db, org.organisationId, { templateAccess: "USE" });
    const member = await createTestMember(t.db, org, useRole);
    const as = { userId: member.user.id, organisationId: org.organisationId };
    expect((await callApp(listApp, { as })).status).toBe(200);
    const refused = { status: 403, body: { error: "Insufficient template access: CREATE required" } };
    expect(await callApp(create, { as, body: { name: "H" } })).toEqual(refused);
    expect(await callApp(rename, { as, params: { groupId: g.id }, body: { name: "H" } })).toEqual(refused);
    expect(await callApp(remove, { as, params: { groupId: g.id } })).toEqual(refused);
    expect(await callApp(addMember, { as, params: { groupId: g.id }, body: { email: "a@example.com" } })).toEqual(refused);
    expect(await callApp(removeMember, { as, params: { groupId: g.id, memberId: "sgm_x" } })).toEqual(refused);
    expect((await callApp(listApp, { as: null })).status).toBe(401);
  });
});
