/**
 * Protects the plan's template limit (`organisations.max_templates`): it counts the organisation's templates in
 * every workspace, refuses the next one with 402 naming the limit, and holds under concurrent creations —
 * the organisation row is locked, so parallel requests cannot overspend it (run with DATABASE_URL for real
 * PostgreSQL concurrency).
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as list from "@/app/api/v1/templates/route";
import { organisations, templates } from "@/server/db/schema";
import { ownerActor } from "@/server/test/actors";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestWorkspace } from "@/server/test/factories";
import { callJson } from "@/server/test/http";
import { createTemplate } from "./create-template";
import { templatesOrg } from "./test-support/fixtures";

const t = useTestDb();

describe("the template limit", () => {
  it("counts every workspace of the organisation and answers 402 beyond the plan's maximum", async () => {
    const { org, key } = await templatesOrg(t.db);
    await t.db.update(organisations).set({ maxTemplates: 2 }).where(eq(organisations.id, org.organisationId));
    const other = await createTestWorkspace(t.db, org.organisationId, "branch");
    const otherKey = (await createTestKey(t.db, org, { workspaceId: other })).value;
    expect((await callJson(list.POST, { key, body: { name: "One" } })).status).toBe(201);
    expect((await callJson(list.POST, { key: otherKey, body: { name: "Two" } })).status).toBe(201);
    const refused = await callJson<{ error: string }>(list.POST, { key, body: { name: "Three" } });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe("Your plan's limit of 2 templates would be exceeded");

    await t.db.update(organisations).set({ maxTemplates: null }).where(eq(organisations.id, org.organisationId));
    expect((await callJson(list.POST, { key, body: { name: "Three" } })).status).toBe(201);
  });

  it("holds under concurrent creations: exactly the limit is created", async () => {
    const { org } = await templatesOrg(t.db);
    await t.db.update(organisations).set({ maxTemplates: 3 }).where(eq(organisations.id, org.organisationId));
    const actor = ownerActor(org);
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => createTemplate(t.db, actor, { name: `T${i}` })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(refusals).toHaveLength(5);
    for (const r of refusals) expect(r.reason).toMatchObject({ status: 402, message: "Your plan's limit of 3 templates would be exceeded" });
    expect(await t.db.select().from(templates).where(eq(templates.organisationId, org.organisationId))).toHaveLength(3);
  });
});
