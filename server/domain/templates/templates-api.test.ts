/**
 * Protects the templates API (ops 27–31) through the real route handlers on a real database: create (DRAFT,
 * 201, 422 by field), list (status incl. `all`, search, pages, newest `updatedAt` first, counts), get (every
 * part and the activation blockers), update (name, merge fields that fields still use, every status move and
 * the 400 with its reasons), delete; template access USE reads but gets 403 on every write; another
 * workspace's key gets 404 on every template route; each change writes its audit event; the app twins answer
 * the same shapes through the session door.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as appOne from "@/app/api/app/templates/[templateId]/route";
import * as appList from "@/app/api/app/templates/route";
import * as one from "@/app/api/v1/templates/[templateId]/route";
import * as list from "@/app/api/v1/templates/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import { setSessionLookup } from "@/server/auth/app-route";
import { auditEvents, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { setClock } from "@/server/lib/clock";
import { createTestMember } from "@/server/test/actors";
import { expectOtherWorkspaceGets404 } from "@/server/test/cross-workspace";
import { useTestDb } from "@/server/test/db";
import { callJson, callRoute } from "@/server/test/http";
import { ACTIVATION_REFUSED } from "./update-template";
import { insertDocument, templatesOrg } from "./test-support/fixtures";

const t = useTestDb();
afterEach(() => setSessionLookup(undefined));

type TTemplateBody = {
  data: {
    id: string;
    name: string;
    status: string;
    updatedAt: string;
    roles: unknown[];
    documents: { id: string }[];
    mergeFields: { key: string }[];
    questions: unknown[];
    lock: unknown;
    activationBlockers: string[];
  };
  error?: string;
  details?: Record<string, string[]>;
};

let tick = Date.parse("2030-01-01T00:00:00Z");
function steppingClock() {
  setClock(() => new Date((tick += 1000)));
}

async function createVia(key: string, body: unknown) {
  return callJson<TTemplateBody>(list.POST, { key, body });
}

describe("POST and GET /api/v1/templates", () => {
  it("creates a DRAFT template (201) with every part empty and the blockers named; 422 names the field", async () => {
    const { key } = await templatesOrg(t.db);
    const res = await createVia(key, { name: "  NDA  ", description: "Mutual" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: "NDA", status: "DRAFT", documents: [], roles: [], mergeFields: [], questions: [], lock: null });
    expect(res.body.data.activationBlockers).toEqual(["Upload at least one PDF document", "Add at least one role"]);
    const [audit] = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, res.body.data.id));
    expect(audit).toMatchObject({ action: "template.created", subjectType: "template" });
    expect(audit!.apiKeyId).not.toBeNull();

    const bad = await createVia(key, { name: " ", description: "x".repeat(2001) });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.details ?? {}).sort()).toEqual(["description", "name"]);
  });

  it("lists newest updatedAt first, filters by status (all = omitted) and search, pages, and counts parts", async () => {
    const { org, key } = await templatesOrg(t.db);
    steppingClock();
    const a = (await createVia(key, { name: "Alpha lease" })).body.data;
    const b = (await createVia(key, { name: "Beta 100% NDA" })).body.data;
    const c = (await createVia(key, { name: "Gamma lease" })).body.data;
    // Touching Alpha makes it the newest.
    await callJson(rolesRoute.POST, { key, params: { templateId: a.id }, body: { name: "Signer" } });
    await insertDocument(t.db, org, a.id);
    await t.db.update(templates).set({ status: "ARCHIVED" }).where(eq(templates.id, c.id));

    type TList = {
      data: { templates: { id: string; documentCount: number; roleCount: number; fieldCount: number }[]; totalCount: number; page: number; pageSize: number };
    };
    const all = await callJson<TList>(list.GET, { key });
    expect(all.body.data.templates.map((x) => x.id)).toEqual([a.id, c.id, b.id]);
    expect(all.body.data.templates[0]).toMatchObject({ documentCount: 1, roleCount: 1, fieldCount: 0 });
    expect((await callJson<TList>(list.GET, { key, query: { status: "all" } })).body.data.totalCount).toBe(3);
    expect((await callJson<TList>(list.GET, { key, query: { status: "ARCHIVED" } })).body.data.templates.map((x) => x.id)).toEqual([c.id]);
    expect((await callJson<TList>(list.GET, { key, query: { search: "LEASE" } })).body.data.templates.map((x) => x.id)).toEqual([a.id, c.id]);
    // `%` is a character, not a wildcard.
    expect((await callJson<TList>(list.GET, { key, query: { search: "100%" } })).body.data.templates.map((x) => x.id)).toEqual([b.id]);
    expect((await callJson<TList>(list.GET, { key, query: { search: "%" } })).body.data.templates.map((x) => x.id)).toEqual([b.id]);
    const page2 = await callJson<TList>(list.GET, { key, query: { page: 2, pageSize: 2 } });
    expect(page2.body.data).toMatchObject({ totalCount: 3, page: 2, pageSize: 2 });
    expect(page2.body.data.templates.map((x) => x.id)).toEqual([b.id]);
    const badStatus = await callJson<TTemplateBody>(list.GET, { key, query: { status: "LIVE" } });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.details).toHaveProperty("status");
  });

  it("answers 404 for an unknown template", async () => {
    const { key } = await templatesOrg(t.db);
    const res = await callJson<TTemplateBody>(one.GET, { key, params: { templateId: "tpl_missing" } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Template not found");
  });
});

describe("PATCH /api/v1/templates/{templateId}", () => {
  it("renames, replaces merge fields and questions, and moves updatedAt", async () => {
    const { key } = await templatesOrg(t.db);
    steppingClock();
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    const res = await callJson<TTemplateBody>(one.PATCH, {
      key,
      params: { templateId: tpl.id },
      body: { name: "NDA v2", description: null, mergeFields: [{ key: "customerName", label: "Customer" }], questions: [{ key: "term", label: "Term?" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "NDA v2",
      mergeFields: [{ key: "customerName", label: "Customer", defaultValue: null }],
      questions: [{ key: "term", label: "Term?", required: true }],
    });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(tpl.updatedAt));
    const dup = await callJson<TTemplateBody>(one.PATCH, {
      key,
      params: { templateId: tpl.id },
      body: {
        mergeFields: [
          { key: "a", label: "A" },
          { key: "a", label: "B" },
        ],
      },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.details).toHaveProperty(["mergeFields.1.key"]);
  });

  it("refuses to drop a merge field a field still uses (422 at mergeFields)", async () => {
    const { org, key } = await templatesOrg(t.db);
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    await callJson(one.PATCH, {
      key,
      params: { templateId: tpl.id },
      body: {
        mergeFields: [
          { key: "customerName", label: "Customer" },
          { key: "city", label: "City" },
        ],
      },
    });
    await callJson(rolesRoute.POST, { key, params: { templateId: tpl.id }, body: { name: "Signer" } });
    const documentId = await insertDocument(t.db, org, tpl.id);
    const field = await callJson(fieldsRoute.POST, {
      key,
      params: { templateId: tpl.id },
      body: { documentId, roleIndex: 0, type: "text", page: 1, x: 10, y: 10, width: 100, height: 20, mergeFieldKey: "customerName" },
    });
    expect(field.status).toBe(201);
    const res = await callJson<TTemplateBody>(one.PATCH, { key, params: { templateId: tpl.id }, body: { mergeFields: [{ key: "city", label: "City" }] } });
    expect(res.status).toBe(422);
    expect(res.body.details?.mergeFields?.[0]).toContain("customerName");
    const ok = await callJson<TTemplateBody>(one.PATCH, {
      key,
      params: { templateId: tpl.id },
      body: { mergeFields: [{ key: "customerName", label: "Client" }] },
    });
    expect(ok.status).toBe(200);
  });

  it("moves status: DRAFT → ACTIVE only with an uploaded PDF, a role and its required signature field (400 with the reasons), ACTIVE ↔ ARCHIVED, back to DRAFT, DRAFT → ARCHIVED", async () => {
    const { org, key } = await templatesOrg(t.db);
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    const status = (s: string) => callJson<TTemplateBody>(one.PATCH, { key, params: { templateId: tpl.id }, body: { status: s } });

    const refused = await status("ACTIVE");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`${ACTIVATION_REFUSED}: Upload at least one PDF document; Add at least one role`);

    await callJson(rolesRoute.POST, { key, params: { templateId: tpl.id }, body: { name: "Signer" } });
    const pending = await insertDocument(t.db, org, tpl.id, { uploadState: "AWAITING_UPLOAD", name: "annex.pdf" });
    const unsigned = "Give the role “Signer” a required signature field";
    expect((await status("ACTIVE")).body.error).toBe(`${ACTIVATION_REFUSED}: Upload at least one PDF document; “annex.pdf” is not uploaded yet; ${unsigned}`);
    const pdf = await insertDocument(t.db, org, tpl.id);
    expect((await status("ACTIVE")).body.error).toBe(`${ACTIVATION_REFUSED}: “annex.pdf” is not uploaded yet; ${unsigned}`);
    const { documents } = await import("@/server/db/schema");
    await t.db.delete(documents).where(eq(documents.id, pending));
    const docx = await insertDocument(t.db, org, tpl.id, { docx: true, name: "terms.docx" });
    const got = await callJson<TTemplateBody>(one.GET, { key, params: { templateId: tpl.id } });
    expect(got.body.data.activationBlockers).toEqual(["Convert “terms.docx” to PDF", unsigned]);
    await t.db.delete(documents).where(eq(documents.id, docx));
    // An optional signature field is not enough; a required one is.
    const box = { documentId: pdf, roleIndex: 0, type: "signature", page: 1, x: 50, y: 50, width: 120, height: 40 };
    const optional = await callJson<{ data: { id: string } }>(fieldsRoute.POST, { key, params: { templateId: tpl.id }, body: { ...box, required: false } });
    expect(optional.status).toBe(201);
    expect((await status("ACTIVE")).body.error).toBe(`${ACTIVATION_REFUSED}: ${unsigned}`);
    expect((await callJson(fieldsRoute.POST, { key, params: { templateId: tpl.id }, body: { ...box, y: 120 } })).status).toBe(201);

    expect((await status("ACTIVE")).body.data.status).toBe("ACTIVE");
    expect((await status("ARCHIVED")).body.data.status).toBe("ARCHIVED");
    expect((await status("ACTIVE")).body.data.status).toBe("ACTIVE");
    expect((await status("DRAFT")).body.data.status).toBe("DRAFT");
    expect((await status("ARCHIVED")).body.data.status).toBe("ARCHIVED");
    expect((await status("DRAFT")).body.data.status).toBe("DRAFT");
    expect((await status("GONE")).status).toBe(422);
    const moves = await t.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, tpl.id), eq(auditEvents.action, "template.status_changed")));
    expect(moves.map((m) => (m.data as { to: string }).to)).toEqual(["ACTIVE", "ARCHIVED", "ACTIVE", "DRAFT", "ARCHIVED", "DRAFT"]);
  });
});

describe("DELETE /api/v1/templates/{templateId}", () => {
  it("deletes the template with its parts; it is 404 afterwards", async () => {
    const { org, key } = await templatesOrg(t.db);
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    await insertDocument(t.db, org, tpl.id);
    const res = await callJson<{ data: unknown }>(one.DELETE, { key, params: { templateId: tpl.id } });
    expect(res.body.data).toEqual({ id: tpl.id, deleted: true });
    expect((await callJson(one.GET, { key, params: { templateId: tpl.id } })).status).toBe(404);
    expect((await callJson(one.DELETE, { key, params: { templateId: tpl.id } })).status).toBe(404);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, tpl.id), eq(auditEvents.action, "template.deleted")));
    expect(audit).toBeDefined();
  });
});

describe("gates and tenancy", () => {
  it("a key with template access USE reads (200) but gets 403 on every write", async () => {
    const { key, useKey } = await templatesOrg(t.db);
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    const p = { templateId: tpl.id };
    expect((await callJson(list.GET, { key: useKey })).status).toBe(200);
    expect((await callJson(one.GET, { key: useKey, params: p })).status).toBe(200);
    const writes = [
      callJson<TTemplateBody>(list.POST, { key: useKey, body: { name: "X" } }),
      callJson<TTemplateBody>(one.PATCH, { key: useKey, params: p, body: { name: "X" } }),
      callJson<TTemplateBody>(one.DELETE, { key: useKey, params: p }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("Insufficient template access: CREATE required");
    }
  });

  it("another workspace's key gets 404 on every template route", async () => {
    const { org, key } = await templatesOrg(t.db);
    const tpl = (await createVia(key, { name: "NDA" })).body.data;
    const params = { templateId: tpl.id };
    await expectOtherWorkspaceGets404(t.db, one.GET, { org, params, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, one.PATCH, { org, params, body: { name: "Hijacked" }, ownKey: key });
    await expectOtherWorkspaceGets404(t.db, one.DELETE, { org, params });
    // The control of DELETE would delete it: the template must have survived the sibling's attempt.
    expect((await callJson(one.GET, { key, params })).status).toBe(200);
    const listed = await callJson<{ data: { totalCount: number } }>(list.GET, { key });
    expect(listed.body.data.totalCount).toBe(1);
  });
});

describe("the app twins (/api/app/templates)", () => {
  function as(actor: TActor) {
    setSessionLookup(async () => ({ userId: actor.user.id, organisationId: actor.organisation.id }));
  }

  it("create, list, get, patch and delete through the session door, with the same rules", async () => {
    const { org } = await templatesOrg(t.db);
    const member = await createTestMember(t.db, org);
    as(member);
    const created = await callJson<TTemplateBody>(appList.POST, { body: { name: "Lease" } });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const listed = await callJson<{ data: { templates: { id: string }[] } }>(appList.GET, {});
    expect(listed.body.data.templates.map((x) => x.id)).toEqual([id]);
    expect((await callJson<TTemplateBody>(appOne.GET, { params: { templateId: id } })).body.data.name).toBe("Lease");
    expect((await callJson<TTemplateBody>(appOne.PATCH, { params: { templateId: id }, body: { status: "ACTIVE" } })).status).toBe(400);
    expect((await callJson(appOne.DELETE, { params: { templateId: id } })).status).toBe(200);

    const viewer = await createTestMember(t.db, org, org.roleIds.viewer);
    as(viewer);
    expect((await callJson(appList.GET, {})).status).toBe(200);
    const refused = await callJson<TTemplateBody>(appList.POST, { body: { name: "X" } });
    expect(viewer.role.templateAccess).toBe("USE");
    expect(refused.status).toBe(403);
    setSessionLookup(async () => null);
    expect((await callRoute(appList.GET, {})).status).toBe(401);
  });
});
