/**
 * Custom field definitions through their real handlers: the public list (op 52: only active definitions, by
 * key; `templateId` narrows to unscoped and that template's; another workspace's template is 404; the plan
 * feature's 402 on both doors), and the app's management — create (409 on a taken key, 422 on a bad key,
 * 404 on another workspace's template scope), edit label/active/scope, delete — with the template-access gate
 * and the workspace boundary (404).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listApi } from "@/app/api/v1/custom-fields/route";
import { GET as listApp, POST as create } from "@/app/api/app/custom-fields/route";
import { DELETE as remove, PATCH as update } from "@/app/api/app/custom-fields/[customFieldId]/route";
import { auditEvents, organisations, templates } from "@/server/db/schema";
import { newId } from "@/server/lib/ids";
import { callApp } from "@/server/test/app-http";
import { createTestMember } from "@/server/test/actors";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg, createTestRole, createTestWorkspace, type TTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import type { TCustomField } from "./schemas";

const t = useTestDb();
const owner = (org: TTestOrg) => ({ userId: org.userId, organisationId: org.organisationId });
type TData<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function define(org: TTestOrg, body: Record<string, unknown>, workspaceId?: string) {
  const res = await callApp<TData<TCustomField>>(create, { as: owner(org), body, workspaceId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function makeTemplate(org: TTestOrg, workspaceId = org.workspaceId) {
  const id = newId("tpl");
  await t.db.insert(templates).values({ id, organisationId: org.organisationId, workspaceId, name: "T" });
  return id;
}

describe("GET /api/v1/custom-fields", () => {
  it("lists only active definitions by key; templateId narrows to unscoped and that template's", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    expect((await callJson(listApi, { key: key.value })).body).toEqual({ data: { customFields: [] } });
    const tplA = await makeTemplate(org);
    const tplB = await makeTemplate(org);
    await define(org, { key: "region", label: "Region" });
    await define(org, { key: "costCentre", label: "Cost centre", templateId: tplA });
    await define(org, { key: "project", label: "Project", templateId: tplB });
    await define(org, { key: "archived", label: "Old", active: false });
    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    await define(org, { key: "elsewhere", label: "Elsewhere" }, siblingId);

    const all = await callJson<TData<{ customFields: TCustomField[] }>>(listApi, { key: key.value });
    expect(all.body.data.customFields.map((f) => f.key)).toEqual(["costCentre", "project", "region"]);
    expect(all.body.data.customFields[0]).toMatchObject({ label: "Cost centre", active: true, templateId: tplA });

    const forA = await callJson<TData<{ customFields: TCustomField[] }>>(listApi, { key: key.value, query: { templateId: tplA } });
    expect(forA.body.data.customFields.map((f) => f.key)).toEqual(["costCentre", "region"]);
  });

  it("another workspace's template is 404; an unknown one too", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const tpl = await makeTemplate(org);
    await expectOtherWorkspaceGets404(t.db, listApi, { org, ownKey: key.value, query: { templateId: tpl } });
    expect(await callJson(listApi, { key: key.value, query: { templateId: "tpl_nope" } })).toMatchObject({
      status: 404,
      body: { error: "Template not found" },
    });
  });

  it("402 without the plan feature, on the API and in the app", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await t.db.update(organisations).set({ featureCustomFields: false }).where(eq(organisations.id, org.organisationId));
    const refused = { status: 402, body: { error: "Your plan does not include custom fields" } };
    expect(await callJson(listApi, { key: key.value })).toMatchObject(refused);
    expect(await callApp(listApp, { as: owner(org) })).toEqual(refused);
    expect(await callApp(create, { as: owner(org), body: { key: "a", label: "A" } })).toEqual(refused);
  });
});

describe("the app's custom fields", () => {
  it("create: 201 with audit, inactive ones listed in the app; 409 on a taken key; 422 on a bad key; 404 on a foreign scope", async () => {
    const org = await createTestOrg(t.db);
    const f = await define(org, { key: "po.number", label: " PO number " });
    expect(f).toMatchObject({ key: "po.number", label: "PO number", active: true, templateId: null });
    await define(org, { key: "hidden", label: "Hidden", active: false });
    const audits = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, f.id));
    expect(audits.map((a) => [a.action, a.actorUserId])).toEqual([["custom_field.created", org.userId]]);

    const listed = await callApp<TData<{ customFields: TCustomField[] }>>(listApp, { as: owner(org) });
    expect(listed.body.data.customFields.map((x) => [x.key, x.active])).toEqual([
      ["hidden", false],
      ["po.number", true],
    ]);

    expect(await callApp(create, { as: owner(org), body: { key: "po.number", label: "Again" } })).toEqual({
      status: 409,
      body: { error: 'A custom field with the key "po.number" already exists in this workspace' },
    });
    for (const key of ["1abc", "has space", "é", ""]) {
      const res = await callApp(create, { as: owner(org), body: { key, label: "L" } });
      expect(res.status, key).toBe(422);
      expect((res.body as { details: Record<string, string[]> }).details.key).toHaveLength(1);
    }
    expect(await callApp(create, { as: owner(org), body: { key: "ok", label: "" } })).toMatchObject({
      status: 422,
      body: { details: { label: ["Enter a label"] } },
    });

    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    const foreignTpl = await makeTemplate(org, siblingId);
    expect(await callApp(create, { as: owner(org), body: { key: "scoped", label: "S", templateId: foreignTpl } })).toEqual({
      status: 404,
      body: { error: "Template not found" },
    });
    // The same key in another workspace is its own definition.
    await define(org, { key: "po.number", label: "PO" }, siblingId);
  });

  it("update label, active and scope (404 for another workspace's definition or template); delete", async () => {
    const org = await createTestOrg(t.db);
    const tpl = await makeTemplate(org);
    const f = await define(org, { key: "region", label: "Region" });
    const p = { customFieldId: f.id };
    const changed = await callApp<TData<TCustomField>>(update, { as: owner(org), params: p, body: { label: "Sales region", active: false, templateId: tpl } });
    expect(changed).toMatchObject({ status: 200, body: { data: { key: "region", label: "Sales region", active: false, templateId: tpl } } });
    const unscoped = await callApp<TData<TCustomField>>(update, { as: owner(org), params: p, body: { templateId: null, active: true } });
    expect(unscoped.body.data).toMatchObject({ templateId: null, active: true, label: "Sales region" });
    expect((await callApp(update, { as: owner(org), params: p, body: { templateId: "tpl_nope" } })).status).toBe(404);
    expect((await callApp(update, { as: owner(org), params: p, body: { label: " " } })).status).toBe(422);

    const siblingId = await createTestWorkspace(t.db, org.organisationId, "sibling");
    expect(await callApp(update, { as: owner(org), params: p, body: { label: "X" }, workspaceId: siblingId })).toEqual({
      status: 404,
      body: { error: "Custom field not found" },
    });
    expect((await callApp(remove, { as: owner(org), params: p, workspaceId: siblingId })).status).toBe(404);

    expect(await callApp(remove, { as: owner(org), params: p })).toEqual({ status: 200, body: { data: { id: f.id, deleted: true } } });
    expect((await callApp(remove, { as: owner(org), params: p })).status).toBe(404);
    const actions = (await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, f.id))).map((a) => a.action).sort();
    expect(actions).toEqual(["custom_field.created", "custom_field.deleted", "custom_field.updated", "custom_field.updated"]);
  });

  it("any member reads; managing needs template access CREATE", async () => {
    const org = await createTestOrg(t.db);
    const f = await define(org, { key: "k", label: "K" });
    const useRole = await createTestRole(t.db, org.organisationId, { templateAccess: "USE" });
    const member = await createTestMember(t.db, org, useRole);
    const as = { userId: member.user.id, organisationId: org.organisationId };
    expect((await callApp(listApp, { as })).status).toBe(200);
    const refused = { status: 403, body: { error: "Insufficient template access: CREATE required" } };
    expect(await callApp(create, { as, body: { key: "x", label: "X" } })).toEqual(refused);
    expect(await callApp(update, { as, params: { customFieldId: f.id }, body: { label: "X" } })).toEqual(refused);
    expect(await callApp(remove, { as, params: { customFieldId: f.id } })).toEqual(refused);
    expect((await callApp(listApp, { as: null })).status).toBe(401);
  });
});
