/**
 * Protects the fields API (ops 36–39) and every placement rule: the document must be an uploaded PDF of this
 * template (422 at documentId: another template's, still uploading, an unconverted DOCX), the page must exist
 * (422 at page), the box must lie inside that page as displayed — on A4 and on a rotated (landscape) page,
 * naming the page size at x, y, width or height — the roleIndex must exist and a merge field key must be one of
 * the template's, on a text field. PATCH validates the field as it would become and keeps what it does not
 * name. USE keys get 403 on writes; another workspace's key gets 404 on every field route.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as fieldsOne from "@/app/api/v1/templates/[templateId]/fields/[fieldId]/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import * as one from "@/app/api/v1/templates/[templateId]/route";
import * as list from "@/app/api/v1/templates/route";
import { auditEvents } from "@/server/db/schema";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { A4, A4_ROTATED, insertDocument, templatesOrg } from "./test-support/fixtures";

const t = useTestDb();

type TField = {
  id: string;
  documentId: string;
  roleIndex: number;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label: string | null;
  mergeFieldKey: string | null;
  type: string;
};
type TBody<T> = { data: T; error?: string; details?: Record<string, string[]> };

async function setup() {
  const ctx = await templatesOrg(t.db);
  const tpl = (await callJson<TBody<{ id: string; updatedAt: string }>>(list.POST, { key: ctx.key, body: { name: "Lease" } })).body.data;
  const p = { templateId: tpl.id };
  await callJson(rolesRoute.POST, { key: ctx.key, params: p, body: { name: "Tenant" } });
  await callJson(rolesRoute.POST, { key: ctx.key, params: p, body: { name: "Landlord" } });
  await callJson(one.PATCH, { key: ctx.key, params: p, body: { mergeFields: [{ key: "tenantName", label: "Tenant name" }] } });
  // Page 1 A4 portrait, page 2 the same page rotated: landscape as displayed.
  const documentId = await insertDocument(t.db, ctx.org, tpl.id, { pageSizes: [A4, A4_ROTATED] });
  const base = { documentId, roleIndex: 0, type: "signature", page: 1, x: 50, y: 700, width: 200, height: 50 };
  const add = (body: Record<string, unknown>, key = ctx.key) => callJson<TBody<TField>>(fieldsRoute.POST, { key, params: p, body: { ...base, ...body } });
  return { ...ctx, tpl, p, documentId, add };
}

describe("fields", () => {
  it("places a field (201), lists it with its roleIndex, and moves the template's updatedAt", async () => {
    const { key, p, documentId, add, tpl } = await setup();
    const res = await add({ roleIndex: 1, label: "Sign here" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      documentId,
      roleIndex: 1,
      type: "signature",
      page: 1,
      x: 50,
      y: 700,
      width: 200,
      height: 50,
      required: true,
      label: "Sign here",
      mergeFieldKey: null,
    });
    const listed = await callJson<TBody<{ fields: TField[] }>>(fieldsRoute.GET, { key, params: p });
    expect(listed.body.data.fields.map((f) => f.id)).toEqual([res.body.data.id]);
    const after = await callJson<TBody<{ updatedAt: string; fields: TField[] }>>(one.GET, { key, params: p });
    expect(after.body.data.fields).toHaveLength(1);
    expect(after.body.data.updatedAt >= tpl.updatedAt).toBe(true);
  });

  it("keeps the box inside the page as displayed: A4 and a rotated page, naming the page size", async () => {
    const { add } = await setup();
    // Just fits A4 (595.28 × 841.89).
    expect((await add({ x: 395.28, y: 791.89, width: 200, height: 50 })).status).toBe(201);
    const wide = await add({ x: 400, width: 200 });
    expect(wide.status).toBe(422);
    expect(wide.body.details).toEqual({ width: ["Page 1 is 595.28 × 841.89 points: x + width must be at most 595.28"] });
    const low = await add({ y: 800 });
    expect(Object.keys(low.body.details ?? {})).toEqual(["height"]);
    const off = await add({ x: 600, y: 900 });
    expect(Object.keys(off.body.details ?? {}).sort()).toEqual(["x", "y"]);
    expect(off.body.details?.x?.[0]).toContain("595.28 × 841.89");
    // The rotated page is landscape: x = 700 fits there, y = 700 does not.
    expect((await add({ page: 2, x: 600, y: 500, width: 200, height: 50 })).status).toBe(201);
    const rotatedLow = await add({ page: 2, x: 50, y: 700 });
    expect(rotatedLow.body.details).toEqual({ y: ["Page 2 is 841.89 × 595.28 points: y must be below 595.28"] });
    const noPage = await add({ page: 3 });
    expect(noPage.body.details).toEqual({ page: ["“contract.pdf” has 2 pages"] });
    expect((await add({ page: 0 })).body.details).toHaveProperty("page");
    expect((await add({ width: -1 })).body.details).toHaveProperty("width");
  });

  it("refuses another template's document, one still uploading and an unconverted DOCX (422 at documentId)", async () => {
    const { org, key, p, add } = await setup();
    const other = (await callJson<TBody<{ id: string }>>(list.POST, { key, body: { name: "Other" } })).body.data;
    const foreignDoc = await insertDocument(t.db, org, other.id);
    const pending = await insertDocument(t.db, org, p.templateId, { uploadState: "AWAITING_UPLOAD", name: "annex.pdf" });
    const docx = await insertDocument(t.db, org, p.templateId, { docx: true, name: "terms.docx" });
    expect((await add({ documentId: foreignDoc })).body.details).toEqual({ documentId: ["No document with this id in this template"] });
    expect((await add({ documentId: pending })).body.details).toEqual({ documentId: ["“annex.pdf” is not uploaded yet"] });
    expect((await add({ documentId: docx })).body.details?.documentId?.[0]).toContain("Convert “terms.docx” to PDF");
  });

  it("checks roleIndex and mergeFieldKey (a text field naming one of the template's merge fields)", async () => {
    const { add } = await setup();
    expect((await add({ roleIndex: 2 })).body.details).toEqual({ roleIndex: ["No role at this index in this template"] });
    // Out of any integer column's range: a 422, never a database error.
    expect((await add({ roleIndex: 1e12, page: 1e12 })).body.details).toMatchObject({ roleIndex: expect.any(Array), page: expect.any(Array) });
    expect((await add({ type: "text", mergeFieldKey: "landlordName" })).body.details).toEqual({
      mergeFieldKey: ["No merge field “landlordName” on this template"],
    });
    expect((await add({ mergeFieldKey: "tenantName" })).body.details).toEqual({ mergeFieldKey: ["Only text fields take a merge field"] });
    const ok = await add({ type: "text", mergeFieldKey: "tenantName", required: false });
    expect(ok.body.data).toMatchObject({ type: "text", mergeFieldKey: "tenantName", required: false });
    expect((await add({ type: "stamp" })).body.details).toHaveProperty("type");
  });

  it("PATCH validates the field as it would become and keeps what it does not name; DELETE removes it", async () => {
    const { key, p, add } = await setup();
    const field = (await add({ required: false, label: "Initials" })).body.data;
    const at = { ...p, fieldId: field.id };
    const moved = await callJson<TBody<TField>>(fieldsOne.PATCH, { key, params: at, body: { x: 300, roleIndex: 1 } });
    expect(moved.body.data).toMatchObject({ x: 300, y: 700, roleIndex: 1, required: false, label: "Initials" });
    // The audit names the changed body keys only: the path's ids are not changes.
    const updates = await t.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, p.templateId), eq(auditEvents.action, "template.field_updated")));
    expect(updates.map((u) => u.data)).toEqual([{ fieldId: field.id, changed: ["roleIndex", "x"] }]);
    // x 300 + width 300 leaves A4.
    const tooWide = await callJson<TBody<TField>>(fieldsOne.PATCH, { key, params: at, body: { width: 300 } });
    expect(tooWide.status).toBe(422);
    expect(tooWide.body.details).toHaveProperty("width");
    expect((await callJson<TBody<TField>>(fieldsOne.PATCH, { key, params: at, body: { page: 2, y: 100 } })).body.data).toMatchObject({ page: 2, y: 100 });
    expect((await callJson(fieldsOne.PATCH, { key, params: { ...p, fieldId: "tfld_missing" }, body: { x: 1 } })).status).toBe(404);

    const del = await callJson<TBody<unknown>>(fieldsOne.DELETE, { key, params: at });
    expect(del.body.data).toEqual({ id: field.id, deleted: true });
    expect((await callJson(fieldsOne.DELETE, { key, params: at })).status).toBe(404);
  });

  it("USE keys read fields but get 403 on writes; another workspace's key gets 404 on every field route", async () => {
    const { org, key, useKey, p, add } = await setup();
    const field = (await add({})).body.data;
    const at = { ...p, fieldId: field.id };
    expect((await callJson(fieldsRoute.GET, { key: useKey, params: p })).status).toBe(200);
    expect((await add({}, useKey)).status).toBe(403);
    expect((await callJson(fieldsOne.PATCH, { key: useKey, params: at, body: { x: 1 } })).status).toBe(403);
    expect((await callJson(fieldsOne.DELETE, { key: useKey, params: at })).status).toBe(403);

    await expectOtherWorkspaceGets404(t.db, fieldsRoute.GET, { org, params: p, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, fieldsRoute.POST, {
      org,
      params: p,
      body: { documentId: field.documentId, roleIndex: 0, type: "date", page: 1, x: 1, y: 1, width: 10, height: 10 },
    });
    await expectOtherWorkspaceGets404(t.db, fieldsOne.PATCH, { org, params: at, body: { x: 60 }, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, fieldsOne.DELETE, { org, params: at });
    const fields = (await callJson<TBody<{ fields: TField[] }>>(fieldsRoute.GET, { key, params: p })).body.data.fields;
    expect(fields.map((f) => [f.id, f.x])).toEqual([[field.id, 60]]);
  });
});
