/**
 * Regression (integrator audit, item 3): in a bulk send (api-map #6) one item with a malformed field
 * (`items[1].recipients[0].email = "bad"`) rejected the whole batch with 422 `items.1.recipients.0.email`,
 * though "one failing item does not stop the others" and an item refused by the domain already came back as
 * `{ index, status: "failed", error: "Validation failed", details }`. Now each item's own fields are checked
 * per item: such an item is that item's failed result, its details relative to the item exactly like a
 * refusal by the domain; the envelope (templateId, answers, items: 1–100 objects) still 422s as a whole; a
 * replay under the same Idempotency-Key answers the same.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as bulkRoute } from "@/app/api/v1/packages/bulk-send/route";
import { organisations, packages } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { createActiveTemplate } from "./test-support/fixtures";

const t = useTestDb();

const recipients = [
  { email: "tenant@example.com", roleIndex: 0 },
  { email: "landlord@example.com", roleIndex: 1 },
];

type TResult = { index: number; status: string; packageId?: string; error?: string; details?: Record<string, string[]> };
type TBody = { data: { results: TResult[] }; error?: string; details?: Record<string, string[]> };

async function setup() {
  const org = await createTestOrg(t.db);
  const key = (await createTestKey(t.db, org)).value;
  const tpl = await createActiveTemplate(t.db, org);
  const packageCount = async () => (await t.db.select({ id: packages.id }).from(packages).where(eq(packages.workspaceId, org.workspaceId))).length;
  return { org, key, templateId: tpl.templateId, packageCount };
}

describe("bulk send checks each item on its own", () => {
  it("an item with a malformed field fails alone, reported like an item the domain refuses", async () => {
    const s = await setup();
    const res = await callJson<TBody>(bulkRoute, {
      key: s.key,
      body: {
        templateId: s.templateId,
        items: [
          { recipients },
          { recipients: [{ email: "bad", roleIndex: 0 }, recipients[1]], title: "" },
          { recipients: [recipients[0]] },
          { recipients, externalId: "crm-1" },
        ],
      },
    });
    expect(res.status).toBe(200);
    const [first, malformed, refused, last] = res.body.data.results;
    expect(first).toMatchObject({ index: 0, status: "sent" });
    expect(malformed).toEqual({
      index: 1,
      status: "failed",
      error: "Validation failed",
      details: { "recipients.0.email": ["Enter a valid email address"], title: ["Enter a title"] },
    });
    // The same shape as an item the domain refuses (a role without a recipient).
    expect(refused).toMatchObject({ index: 2, status: "failed", error: "Validation failed" });
    expect(Object.keys(refused!.details!)).toEqual(["recipients"]);
    expect(last).toMatchObject({ index: 3, status: "sent" });
    expect(await s.packageCount()).toBe(2);
    const [org] = await t.db.select().from(organisations).where(eq(organisations.id, s.org.organisationId));
    expect(org!.packagesUsed).toBe(2);
  });

  it("an ill-formed string in an item fails that item only", async () => {
    const s = await setup();
    const res = await callJson<TBody>(bulkRoute, {
      key: s.key,
      body: { templateId: s.templateId, items: [{ recipients, title: "a\u0000b" }, { recipients }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toEqual({
      index: 0,
      status: "failed",
      error: "Validation failed",
      details: { title: ["Must not contain NUL characters"] },
    });
    expect(res.body.data.results[1]).toMatchObject({ index: 1, status: "sent" });
  });

  it("the envelope is still checked as a whole (422), writing nothing", async () => {
    const s = await setup();
    const cases: [unknown, string[]][] = [
      [{ items: [{ recipients }] }, ["templateId"]],
      [{ templateId: s.templateId, items: [] }, ["items"]],
      [{ templateId: s.templateId, items: Array.from({ length: 101 }, () => ({ recipients })) }, ["items"]],
      [{ templateId: s.templateId, items: [{ recipients }, "not an item"] }, ["items.1"]],
      [{ templateId: s.templateId, items: [{ recipients }], answers: { q: 1 } }, ["answers.q"]],
    ];
    for (const [body, paths] of cases) {
      const res = await callJson<TBody>(bulkRoute, { key: s.key, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(res.body.details!), JSON.stringify(body).slice(0, 80)).toEqual(paths);
    }
    expect(await s.packageCount()).toBe(0);
  });

  it("a replay with the same Idempotency-Key answers the same results without sending again", async () => {
    const s = await setup();
    const body = { templateId: s.templateId, items: [{ recipients }, { recipients: [{ email: "bad", roleIndex: 0 }] }] };
    const headers = { "idempotency-key": "bulk-1" };
    const first = await callJson<TBody>(bulkRoute, { key: s.key, body, headers });
    const again = await callJson<TBody>(bulkRoute, { key: s.key, body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(first.body.data.results.map((r) => r.status)).toEqual(["sent", "failed"]);
    expect(await s.packageCount()).toBe(1);
  });
});
