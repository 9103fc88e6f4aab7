/**
 * Regression (integrator audit, item 5): the messages of a list's query parameters. `pageSize=abc` said
 * "Invalid input: expected number, received NaN", and `status=DRAFT&status=COMPLETED` said "Invalid option:
 * expected one of …" though both values are valid — the real mistake is the repeated parameter. Now a number
 * that is not a whole number says so (for every list's page and pageSize, from the one shared schema), and a
 * parameter given twice says to give it once, at its own name.
 */
import { describe, expect, it } from "vitest";
import { GET as listPackagesRoute } from "@/app/api/v1/packages/route";
import { GET as listTemplatesRoute } from "@/app/api/v1/templates/route";
import { GET as listWebhooksRoute } from "@/app/api/v1/webhooks/route";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();

type TError = { error: string; details: Record<string, string[]> };

async function keyValue() {
  return (await createTestKey(t.db, await createTestOrg(t.db))).value;
}

describe("list query parameters", () => {
  it("a page or pageSize that is not a whole number says so, on every list", async () => {
    const key = await keyValue();
    for (const route of [listPackagesRoute, listTemplatesRoute, listWebhooksRoute]) {
      for (const value of ["abc", "1.5", "Infinity"]) {
        const res = await callJson<TError>(route, { key, path: `${route.operation.path}?pageSize=${value}&page=${value}` });
        expect(res.status, `${route.operation.operationId} ${value}`).toBe(422);
        expect(res.body.details).toEqual({ page: ["Expected a whole number"], pageSize: ["Expected a whole number"] });
      }
    }
    const tooBig = await callJson<TError>(listPackagesRoute, { key, query: { pageSize: 101 } });
    expect(tooBig.body.details).toEqual({ pageSize: ["At most 100"] });
    const tooSmall = await callJson<TError>(listPackagesRoute, { key, query: { page: 0 } });
    expect(tooSmall.body.details).toEqual({ page: ["At least 1"] });
  });

  it("a parameter given twice is refused at its name, even when each value is valid", async () => {
    const key = await keyValue();
    const res = await callJson<TError>(listPackagesRoute, { key, path: "/api/v1/packages?status=DRAFT&status=COMPLETED" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed", details: { status: ["Give status once"] } });
    const both = await callJson<TError>(listPackagesRoute, { key, path: "/api/v1/packages?search=a&search=b&pageSize=abc" });
    expect(both.body.details).toEqual({ search: ["Give search once"], pageSize: ["Expected a whole number"] });
    // An unknown parameter is ignored, repeated or not.
    expect((await callJson(listPackagesRoute, { key, path: "/api/v1/packages?x=1&x=2" })).status).toBe(200);
  });
});
