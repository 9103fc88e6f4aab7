/**
 * Input at the boundary, as the spec's error table fixes it: a body over the cap is 413 (read no further),
 * a body that is not JSON is 400 `Invalid JSON body`, and well-formed input failing its schema is 422 with
 * `details` keyed by dotted path (`recipients.0.email`), query parameters included (`pageSize`).
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getWebhook } from "@/app/api/v1/webhooks/[endpointId]/route";
import { apiRoute } from "@/server/http/api-route";
import { defineOperation } from "@/server/domain/operation";
import { ZPageQuery } from "@/server/lib/pagination";
import { z } from "@/server/lib/zod";
import { env } from "@/server/env";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
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

/** Sends every string it receives to the database, as domain code does: a NUL reaching it would throw (500). */
const echoThing = apiRoute(
  defineOperation({
    operationId: "testEchoThing",
    method: "POST",
    path: "/api/v1/test/things/{thingId}",
    summary: "t",
    tag: "Test",
    params: z.object({ thingId: z.string().min(1) }),
    query: z.object({ search: z.string().optional() }),
    body: z.object({
      title: z.string().optional(),
      recipients: z.array(z.object({ email: z.string() })).optional(),
      metadata: z.record(z.string(), z.string()).optional(),
    }),
    response: z.object({ ok: z.boolean() }),
  }),
  async ({ db, params, query, body }) => {
    const texts = [
      params.thingId,
      query.search ?? "",
      body.title ?? "",
      ...(body.recipients ?? []).map((r) => r.email),
      ...Object.entries(body.metadata ?? {}).flat(),
    ];
    for (const text of texts) await db.execute(sql`select ${text}::text`);
    return { ok: true };
  },
);

/**
 * `echoThing` called with its params and body bytes exactly as given: callJson percent-encodes params into the
 * URL (which a lone surrogate cannot be) and sends text bodies.
 */
async function echoRaw(key: string, thingId: string, body: string | Uint8Array) {
  const res = await echoThing(
    new Request("http://localhost:3000/api/v1/test/things/t1", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", [CLIENT_ADDRESS_HEADER]: "127.0.0.1" },
      body: typeof body === "string" ? body : new Uint8Array(body),
    }),
    { params: Promise.resolve({ thingId }) },
  );
  return { status: res.status, body: (await res.json()) as unknown };
}

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

  /*
   * Regression: PostgreSQL (and PGlite) cannot store U+0000 in text or jsonb and the driver throws, so a NUL
   * in any string of the input used to surface as 500 "Internal error". The boundary answers 422 with the
   * offending dotted path instead, for params, query and body alike, before the handler runs.
   */
  it("answers 422 for a NUL character in a param, a query parameter or a body string, by dotted path", async () => {
    const key = await keyValue();
    const ok = await callJson(echoThing, { key, params: { thingId: "t1" }, query: { search: "x" }, body: { title: "A", metadata: { a: "b" } } });
    expect(ok.status).toBe(200);

    const param = await callJson(echoThing, { key, params: { thingId: "t\u00001" }, body: {} });
    expect(param.status).toBe(422);
    expect(param.body).toEqual({ error: "Validation failed", details: { thingId: ["Must not contain NUL characters"] } });

    const query = await callJson(echoThing, { key, params: { thingId: "t1" }, query: { search: "a\u0000b" }, body: {} });
    expect(query.status).toBe(422);
    expect(query.body).toEqual({ error: "Validation failed", details: { search: ["Must not contain NUL characters"] } });

    const body = await callJson(echoThing, {
      key,
      params: { thingId: "t1" },
      body: { title: "a\u0000b", recipients: [{ email: "a@b.co" }, { email: "c\u0000@d.co" }], metadata: { "k\u0000": "v", ok: "\u0000" } },
    });
    expect(body.status).toBe(422);
    expect(body.body).toEqual({
      error: "Validation failed",
      details: {
        title: ["Must not contain NUL characters"],
        "recipients.1.email": ["Must not contain NUL characters"],
        metadata: ["Keys must not contain NUL characters"],
        "metadata.ok": ["Must not contain NUL characters"],
      },
    });
  });

  /*
   * Regression (issue 24): an unpaired UTF-16 surrogate (`"\ud800"`, ill-formed Unicode that JSON can carry)
   * made jsonb refuse the statement (500) and a text column store U+FFFD instead of what was sent. The boundary
   * answers 422 naming the field, like a NUL.
   */
  it("answers 422 for an unpaired surrogate in a param or a body string or key, by dotted path", async () => {
    const key = await keyValue();
    const param = await echoRaw(key, "t\udc00", "{}");
    expect(param.status).toBe(422);
    expect(param.body).toEqual({ error: "Validation failed", details: { thingId: ["Must be well-formed Unicode (no unpaired UTF-16 surrogate)"] } });

    // A surrogate pair (an emoji) is well-formed and passes; each half alone does not. JSON.stringify writes a
    // lone surrogate as the escape `\ud800`, which is what such a client sends.
    const body = await echoRaw(
      key,
      "t1",
      JSON.stringify({ title: "\ud83d\ude00 ok \ud800", recipients: [{ email: "a@b.co" }, { email: "\ude00" }], metadata: { "k\ud800": "v", ok: "x\udfff" } }),
    );
    expect(body.status).toBe(422);
    expect(body.body).toEqual({
      error: "Validation failed",
      details: {
        title: ["Must be well-formed Unicode (no unpaired UTF-16 surrogate)"],
        "recipients.1.email": ["Must be well-formed Unicode (no unpaired UTF-16 surrogate)"],
        metadata: ["Keys must be well-formed Unicode (no unpaired UTF-16 surrogate)"],
        "metadata.ok": ["Must be well-formed Unicode (no unpaired UTF-16 surrogate)"],
      },
    });

    const pair = await echoRaw(key, "t\ud83d\ude00", JSON.stringify({ title: "\ud83d\ude00", metadata: { "\ud83d\ude00": "\ud83d\ude00" } }));
    expect(pair).toEqual({ status: 200, body: { data: { ok: true } } });
  });

  it("answers 400 Invalid JSON body for bytes that are not UTF-8, even inside a JSON string", async () => {
    const key = await keyValue();
    // {"title":"<ff>"} and {"title":"<ed a0 80>"} (a surrogate encoded as UTF-8, which UTF-8 forbids).
    for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc3]]) {
      const raw = Buffer.concat([Buffer.from('{"title":"'), Buffer.from(bytes), Buffer.from('"}')]);
      const res = await echoRaw(key, "t1", raw);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Invalid JSON body" });
    }
    // Control: the same with valid UTF-8 (é) passes.
    expect(await echoRaw(key, "t1", Buffer.from('{"title":"\u00e9"}'))).toEqual({ status: 200, body: { data: { ok: true } } });
  });

  it("answers 422, not 500, for GET /api/v1/webhooks/%00 (a NUL path param reaching a real route)", async () => {
    const res = await callJson(getWebhook, { key: await keyValue(), params: { endpointId: "\u0000" } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: "Validation failed", details: { endpointId: ["Must not contain NUL characters"] } });
  });
});
