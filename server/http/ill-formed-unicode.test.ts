/**
 * Issue 24, item 2: a lone UTF-16 surrogate (`"\ud800"`, which JSON can carry as an escape) in a string that
 * reached a jsonb column — merge-field values on from-template and bulk-send items, template merge-field and
 * question labels, signing-group names in the app — was a 500 (PostgreSQL refuses it in jsonb), and in a text
 * column it was silently stored as U+FFFD. The boundary (server/lib/parse.ts, on both doors) now answers 422
 * naming the field by dotted path, and writes nothing (a bulk-send item, checked on its own, fails alone with
 * that path within the item); a surrogate PAIR (an emoji) is well-formed and is stored
 * exactly. Real routes, real database (PGlite; PostgreSQL with DATABASE_URL).
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createSigningGroupRoute } from "@/app/api/app/signing-groups/route";
import { POST as bulkSendRoute } from "@/app/api/v1/packages/bulk-send/route";
import { POST as fromTemplateRoute } from "@/app/api/v1/packages/from-template/route";
import { POST as createPackageRoute } from "@/app/api/v1/packages/route";
import { PATCH as patchTemplateRoute } from "@/app/api/v1/templates/[templateId]/route";
import { packages, signingGroups, templates } from "@/server/db/schema";
import { createActiveTemplate } from "@/server/domain/packages/test-support/fixtures";
import { ILL_FORMED_MESSAGE } from "@/server/lib/parse";
import { callApp } from "@/server/test/app-http";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();

type TBody = { error: string; details?: Record<string, string[]>; data?: Record<string, unknown> };

async function setup() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const { templateId } = await createActiveTemplate(t.db, org);
  return { org, key, templateId };
}

const recipients = [
  { email: "tenant@example.com", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];
const EMOJI = "\ud83d\ude00";

async function packageCount(): Promise<number> {
  return (await t.db.select({ n: count() }).from(packages))[0]!.n;
}

describe("a lone surrogate is a 422 naming the field, on jsonb and text alike", () => {
  it("from-template: a merge-field value (jsonb) and the title (text)", async () => {
    const s = await setup();
    const merge = await callJson<TBody>(fromTemplateRoute, {
      key: s.key,
      body: { templateId: s.templateId, title: "Lease", recipients, mergeFields: { customerName: "Ann \ud800" } },
    });
    expect(merge.status).toBe(422);
    expect(merge.body).toEqual({ error: "Validation failed", details: { "mergeFields.customerName": [ILL_FORMED_MESSAGE] } });

    const title = await callJson<TBody>(fromTemplateRoute, { key: s.key, body: { templateId: s.templateId, title: "Lease \udc00", recipients } });
    expect(title.status).toBe(422);
    expect(title.body.details).toEqual({ title: [ILL_FORMED_MESSAGE] });
    expect(await packageCount()).toBe(0);

    // Control: a surrogate pair is well-formed, and both columns keep it exactly (no U+FFFD).
    const ok = await callJson<TBody>(fromTemplateRoute, {
      key: s.key,
      body: { templateId: s.templateId, title: `Lease ${EMOJI}`, recipients, mergeFields: { customerName: `Ann ${EMOJI}` } },
    });
    expect(ok.status).toBe(201);
    const [row] = await t.db
      .select({ title: packages.title })
      .from(packages)
      .where(eq(packages.id, ok.body.data!.id as string));
    expect(row!.title).toBe(`Lease ${EMOJI}`);
    expect(JSON.stringify(ok.body.data)).toContain(`Ann ${EMOJI}`);
  });

  // Each bulk item is checked on its own (integrator audit, item 3): the item fails alone, named within it.
  it("bulk send: an item's merge-field value fails that item, at mergeFields.<key> within it", async () => {
    const s = await setup();
    const res = await callJson<TBody>(bulkSendRoute, {
      key: s.key,
      body: { templateId: s.templateId, items: [{ recipients }, { recipients, mergeFields: { customerName: "\ud800" } }] },
    });
    expect(res.status).toBe(200);
    expect((res.body.data as { results: unknown[] }).results[1]).toEqual({
      index: 1,
      status: "failed",
      error: "Validation failed",
      details: { "mergeFields.customerName": [ILL_FORMED_MESSAGE] },
    });
    expect(await packageCount()).toBe(1);
  });

  it("a blank package: the title (a text column, which stored U+FFFD) and a metadata key", async () => {
    const s = await setup();
    const one = [{ email: "ann@example.com" }];
    const res = await callJson<TBody>(createPackageRoute, { key: s.key, body: { title: "\ud800", recipients: one } });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual({ title: [ILL_FORMED_MESSAGE] });
    const key = await callJson<TBody>(createPackageRoute, { key: s.key, body: { title: "Ok", recipients: one, metadata: { "k\ud800": "v" } } });
    expect(key.status).toBe(422);
    expect(key.body.details).toEqual({ metadata: ["Keys must be well-formed Unicode (no unpaired UTF-16 surrogate)"] });
    expect(await packageCount()).toBe(0);
  });

  it("a template's merge-field and question labels", async () => {
    const s = await setup();
    const res = await callJson<TBody>(patchTemplateRoute, {
      key: s.key,
      params: { templateId: s.templateId },
      body: {
        mergeFields: [{ key: "customerName", label: "Customer \ud800" }],
        questions: [{ key: "q1", label: "Why \udfff?", required: false }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual({ "mergeFields.0.label": [ILL_FORMED_MESSAGE], "questions.0.label": [ILL_FORMED_MESSAGE] });
    const [row] = await t.db.select({ mergeFields: templates.mergeFields }).from(templates).where(eq(templates.id, s.templateId));
    expect(row!.mergeFields).toEqual([{ key: "customerName", label: "Customer", defaultValue: null }]);
  });

  it("the app's door: a signing group's name", async () => {
    const s = await setup();
    const as = { userId: s.org.userId, organisationId: s.org.organisationId };
    const res = await callApp<TBody>(createSigningGroupRoute, { as, body: { name: "Group \ud800" } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed", details: { name: [ILL_FORMED_MESSAGE] } });
    expect((await t.db.select({ n: count() }).from(signingGroups))[0]!.n).toBe(0);
    const ok = await callApp<TBody>(createSigningGroupRoute, { as, body: { name: `Group ${EMOJI}` } });
    expect(ok.status).toBe(201);
  });
});
