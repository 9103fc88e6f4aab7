/**
 * Input at the boundary, as the spec's error table fixes it: a body over the cap is 413 (read no further),
 * a body that is not JSON is 400 `Invalid JSON body`, and well-formed input failing its schema is 422 with
 * `details` keyed by dotted path (`recipients.0.email`), query parameters included (`pageSize`).
 */
import { describe, expect, it } from "vitest";
import { apiRoute } from "@/server/http/api-route";
import { defineOperation } from "@/server/http/operation";
import { ZPageQuery } from "@/server/http/pagination";
import { z } from "@/server/http/zod";
import { env } from "@/server/env";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson } from "@/server/test/http";

const t = useTestDb();

const createThing = apiRoute(
  defineOperation({
    operationId: "testCreateThing",
    method: "POST",
    path: "/api/v1/test/things",
    summary: "t",
    tag: "Test",
    body: z.object({ title: z.string().min(1), recipients: z.array(z.object({ email: z.email() })).min(1) }),
    response: z.object({ title: z.string(), count: z.number() }),
    successStatus: 201,
  }),
  async ({ body }) => ({ title: body.title, count: body.recipients.length }),
);

const listThings = apiRoute(
  defineOperation({
    operationId: "testListThings",
    method: "GET",
    path: "/api/v1/test/things",
    summary: "t",
    tag: "Test",
    query: ZPageQuery,
    response: z.object({ page: z.number(), pageSize: z.number() }),
  }),
  async ({ query }) => query,
);

async function keyValue() {
  return (await createTestKey(t.db, await createTestOrg(t.db))).value;
}

describe("request validation", () => {
  it("accepts a valid body with 201 (control)", async () => {
    const res = await callJson(createThing, { key: await keyValue(), body: { title: "A", recipients: [{ email: "a@b.co" }] } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { title: "A", count: 1 } });
  });

  it("answers 400 Invalid JSON body", async () => {
    const res = await callJson(createThing, { key: await keyValue(), rawBody: '{"title": "A",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid JSON body" });
  });

  it("answers 413 for a body over the cap, declared or streamed", async () => {
    const key = await keyValue();
    const big = JSON.stringify({ title: "x".repeat(env().API_BODY_LIMIT_BYTES), recipients: [] });
    const streamed = await callJson(createThing, { key, rawBody: big });
    expect(streamed.status).toBe(413);
    expect(streamed.body).toEqual({ error: "Request body too large" });
    const declared = await callJson(createThing, {
      key,
      rawBody: "{}",
      headers: { "content-length": String(env().API_BODY_LIMIT_BYTES + 1) },
    });
    expect(declared.status).toBe(413);
  });

  it("answers 422 with details keyed by dotted path", async () => {
    const res = await callJson<{ error: string; details: Record<string, string[]> }>(createThing, {
      key: await keyValue(),
      body: { title: "", recipients: [{ email: "a@b.co" }, { email: "not-an-email" }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("Validation failed");
    expect(Object.keys(res.body.details).sort()).toEqual(["recipients.1.email", "title"]);
    expect(res.body.details["recipients.1.email"]?.length).toBe(1);
  });

  it("answers 422 on details.pageSize above 100, and applies the defaults", async () => {
    const key = await keyValue();
    const res = await callJson<{ error: string; details: Record<string, string[]> }>(listThings, { key, query: { pageSize: 101 } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.details)).toEqual(["pageSize"]);
    const zero = await callJson<{ details: Record<string, string[]> }>(listThings, { key, query: { page: 0 } });
    expect(Object.keys(zero.body.details)).toEqual(["page"]);
    const defaults = await callJson(listThings, { key });
    expect(defaults.body).toEqual({ data: { page: 1, pageSize: 25 } });
  });

  it("validates only after authentication: a bad body without a key is 401", async () => {
    const res = await callJson(createThing, { rawBody: "not json" });
    expect(res.status).toBe(401);
  });
});
