/**
 * A template becomes ACTIVE only when every role has a required signature field, and stays able to make
 * packages while ACTIVE: a change that would stop it is refused with 409 and writes nothing; other changes pass.
 * A template activated before the rule (a role with nothing to sign) cannot make packages (422 at templateId).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as fromTemplate from "@/app/api/v1/packages/from-template/route";
import * as documentOne from "@/app/api/v1/templates/[templateId]/documents/[documentId]/route";
import * as documentsRoute from "@/app/api/v1/templates/[templateId]/documents/route";
import * as fieldOne from "@/app/api/v1/templates/[templateId]/fields/[fieldId]/route";
import * as fieldsRoute from "@/app/api/v1/templates/[templateId]/fields/route";
import * as roleOne from "@/app/api/v1/templates/[templateId]/roles/[roleIndex]/route";
import * as rolesRoute from "@/app/api/v1/templates/[templateId]/roles/route";
import * as one from "@/app/api/v1/templates/[templateId]/route";
import * as list from "@/app/api/v1/templates/route";
import { auditEvents, documents, templateFields, templateRoles, templates } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { callJson } from "@/server/test/http";
import { KEEP_ACTIVE_REFUSED } from "./find-activation-blockers";
import { ACTIVATION_REFUSED } from "./update-template";
import { insertDocument, templatesOrg } from "./test-support/fixtures";

const t = useTestDb();

type TData<T = Record<string, unknown>> = { data: T; error?: string; details?: Record<string, string[]> };
type TField = { id: string };

/** An ACTIVE template through the API: one PDF, roles Buyer and Seller, each with one required signature field. */
async function activeTemplate() {
  const { org, key } = await templatesOrg(t.db);
  const made = await callJson<TData<{ id: string }>>(list.POST, { key, body: { name: "Sale" } });
  const templateId = made.body.data.id;
  const params = { templateId };
  const pdf = await insertDocument(t.db, org, templateId, { name: "sale.pdf" });
  for (const name of ["Buyer", "Seller"]) expect((await callJson(rolesRoute.POST, { key, params, body: { name } })).status).toBe(201);
  const fields: string[] = [];
  for (const roleIndex of [0, 1]) {
    const body = { documentId: pdf, roleIndex, type: "signature", page: 1, x: 50, y: 50 + 60 * roleIndex, width: 120, height: 40 };
    const field = await callJson<TData<TField>>(fieldsRoute.POST, { key, params, body });
    expect(field.status).toBe(201);
    fields.push(field.body.data.id);
  }
  const activated = await callJson<TData<{ status: string }>>(one.PATCH, { key, params, body: { status: "ACTIVE" } });
  expect(activated.body.data.status).toBe("ACTIVE");
  return { org, key, params, templateId, pdf, fields };
}

/** What a refused change must leave alone: the template row (updatedAt too), its parts and its audit trail. */
async function snapshot(templateId: string) {
  const [row] = await t.db.select().from(templates).where(eq(templates.id, templateId));
  return {
    template: row,
    roles: await t.db.select().from(templateRoles).where(eq(templateRoles.templateId, templateId)),
    fields: await t.db.select().from(templateFields).where(eq(templateFields.templateId, templateId)),
    documents: await t.db.select().from(documents).where(eq(documents.templateId, templateId)),
    audit: await t.db.select().from(auditEvents).where(eq(auditEvents.subjectId, templateId)),
  };
}

const refusal = (reasons: string) => `${KEEP_ACTIVE_REFUSED}: ${reasons}`;

describe("activating a template", () => {
  it("needs a required signature field for every role, named in the 400 and in activationBlockers", async () => {
    const { org, key } = await templatesOrg(t.db);
    const made = await callJson<TData<{ id: string }>>(list.POST, { key, body: { name: "Sale" } });
    const params = { templateId: made.body.data.id };
    const pdf = await insertDocument(t.db, org, params.templateId);
    await callJson(rolesRoute.POST, { key, params, body: { name: "Buyer" } });
    await callJson(rolesRoute.POST, { key, params, body: { name: "Seller" } });
    // Buyer has a text field and an optional signature: neither counts.
    const box = { documentId: pdf, roleIndex: 0, page: 1, x: 50, width: 120, height: 40 };
    await callJson(fieldsRoute.POST, { key, params, body: { ...box, type: "text", y: 50 } });
    await callJson(fieldsRoute.POST, { key, params, body: { ...box, type: "signature", required: false, y: 100 } });
    await callJson(fieldsRoute.POST, { key, params, body: { ...box, roleIndex: 1, type: "signature", y: 150 } });

    const refused = await callJson<TData>(one.PATCH, { key, params, body: { status: "ACTIVE" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(`${ACTIVATION_REFUSED}: Give the role “Buyer” a required signature field`);
    const got = await callJson<TData<{ activationBlockers: string[]; status: string }>>(one.GET, { key, params });
    expect(got.body.data).toMatchObject({ status: "DRAFT", activationBlockers: ["Give the role “Buyer” a required signature field"] });

    await callJson(fieldsRoute.POST, { key, params, body: { ...box, type: "signature", y: 200 } });
    expect((await callJson<TData<{ status: string }>>(one.PATCH, { key, params, body: { status: "ACTIVE" } })).body.data.status).toBe("ACTIVE");
  });

  it("from ARCHIVED back to ACTIVE checks the same rules", async () => {
    const s = await activeTemplate();
    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { status: "ARCHIVED" } })).status).toBe(200);
    // Archived is not ACTIVE: its parts may change freely.
    expect((await callJson(fieldOne.DELETE, { key: s.key, params: { ...s.params, fieldId: s.fields[1]! } })).status).toBe(200);
    const back = await callJson<TData>(one.PATCH, { key: s.key, params: s.params, body: { status: "ACTIVE" } });
    expect(back.status).toBe(400);
    expect(back.body.error).toBe(`${ACTIVATION_REFUSED}: Give the role “Seller” a required signature field`);
  });
});

describe("an ACTIVE template keeps what activation checked", () => {
  it("refuses with 409 and writes nothing: a role's only signature deleted or made optional, a role added or deleted", async () => {
    const s = await activeTemplate();
    const before = await snapshot(s.templateId);
    const seller = { ...s.params, fieldId: s.fields[1]! };

    const attempts = [
      { res: await callJson<TData>(fieldOne.DELETE, { key: s.key, params: seller }), reasons: "Give the role “Seller” a required signature field" },
      {
        res: await callJson<TData>(fieldOne.PATCH, { key: s.key, params: seller, body: { required: false } }),
        reasons: "Give the role “Seller” a required signature field",
      },
      {
        res: await callJson<TData>(fieldOne.PATCH, { key: s.key, params: seller, body: { type: "initials" } }),
        reasons: "Give the role “Seller” a required signature field",
      },
      {
        res: await callJson<TData>(rolesRoute.POST, { key: s.key, params: s.params, body: { name: "Witness" } }),
        reasons: "Give the role “Witness” a required signature field",
      },
    ];
    for (const { res, reasons } of attempts) {
      expect(res.status).toBe(409);
      expect(res.body.error).toBe(refusal(reasons));
    }
    expect(await snapshot(s.templateId)).toEqual(before);
  });

  it("refuses removing the last role or the last document, and adding a document still to upload", async () => {
    const s = await activeTemplate();
    // One role left after the first delete (it only removes a role: no new blocker), then the last one is kept.
    expect((await callJson(roleOne.DELETE, { key: s.key, params: { ...s.params, roleIndex: "1" } })).status).toBe(200);
    const lastRole = await callJson<TData>(roleOne.DELETE, { key: s.key, params: { ...s.params, roleIndex: "0" } });
    expect(lastRole.status).toBe(409);
    expect(lastRole.body.error).toBe(refusal("Add at least one role"));

    const lastDocument = await callJson<TData>(documentOne.DELETE, { key: s.key, params: { ...s.params, documentId: s.pdf } });
    expect(lastDocument.status).toBe(409);
    expect(lastDocument.body.error).toBe(refusal("Upload at least one PDF document; Give the role “Buyer” a required signature field"));

    const added = await callJson<TData>(documentsRoute.POST, { key: s.key, params: s.params, body: { name: "annex.pdf", fileSize: 1000 } });
    expect(added.status).toBe(409);
    expect(added.body.error).toBe(refusal("“annex.pdf” is not uploaded yet"));
    const docs = await t.db.select({ id: documents.id }).from(documents).where(eq(documents.templateId, s.templateId));
    expect(docs.map((d) => d.id)).toEqual([s.pdf]);
  });

  it("lets through changes that keep it usable: rename, a field moved, another signature added, a second document removed", async () => {
    const s = await activeTemplate();
    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { name: "Sale 2" } })).status).toBe(200);
    expect((await callJson(fieldOne.PATCH, { key: s.key, params: { ...s.params, fieldId: s.fields[0]! }, body: { x: 60 } })).status).toBe(200);
    const extra = { documentId: s.pdf, roleIndex: 1, type: "signature", page: 1, x: 300, y: 50, width: 120, height: 40 };
    const second = await callJson<TData<TField>>(fieldsRoute.POST, { key: s.key, params: s.params, body: extra });
    expect(second.status).toBe(201);
    // Seller has two signatures now: either may go.
    expect((await callJson(fieldOne.DELETE, { key: s.key, params: { ...s.params, fieldId: s.fields[1]! } })).status).toBe(200);
    const annex = await insertDocument(t.db, s.org, s.templateId, { name: "annex.pdf" });
    expect((await callJson(documentOne.DELETE, { key: s.key, params: { ...s.params, documentId: annex } })).status).toBe(200);
    // Back to DRAFT, anything goes again.
    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { status: "DRAFT" } })).status).toBe(200);
    expect((await callJson(rolesRoute.POST, { key: s.key, params: s.params, body: { name: "Witness" } })).status).toBe(201);
  });
});

describe("packages from a template activated before the signature rule", () => {
  it("are refused with 422 at templateId naming the role; the template is fixed in DRAFT and works again", async () => {
    const s = await activeTemplate();
    // As an installation upgraded with such a template would have it: Seller's only field is a text field.
    await t.db.update(templateFields).set({ type: "text" }).where(eq(templateFields.id, s.fields[1]!));
    const recipients = [
      { email: "buyer@example.com", roleIndex: 0 },
      { email: "seller@example.com", roleIndex: 1 },
    ];
    const refused = await callJson<TData>(fromTemplate.POST, { key: s.key, body: { templateId: s.templateId, title: "Sale", recipients } });
    expect(refused.status).toBe(422);
    expect(refused.body.details).toEqual({
      templateId: ["The template cannot make packages until it is set back to Draft and fixed: Give the role “Seller” a required signature field"],
    });

    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { status: "DRAFT" } })).status).toBe(200);
    const fixed = await callJson(fieldOne.PATCH, { key: s.key, params: { ...s.params, fieldId: s.fields[1]! }, body: { type: "signature" } });
    expect(fixed.status).toBe(200);
    expect((await callJson(one.PATCH, { key: s.key, params: s.params, body: { status: "ACTIVE" } })).status).toBe(200);
    const made = await callJson<TData>(fromTemplate.POST, { key: s.key, body: { templateId: s.templateId, title: "Sale", recipients } });
    expect(made.status).toBe(201);
  });
});
