/**
 * The endpoints that work without a key: health (database reachable) and the OpenAPI document; and the
 * app-internal API refusing an API key with the spec's 403 instead of treating it as "not signed in".
 */
import { expect, test } from "@playwright/test";

test("GET /api/health is 200 with the database reachable", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { status: string; database: { reachable: boolean } };
  expect(body.status).toBe("ok");
  expect(body.database.reachable).toBe(true);
});

test("GET /api-reference/openapi.json is an OpenAPI 3.0.3 document, no key needed", async ({ request }) => {
  const res = await request.get("/api-reference/openapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.0.3");
  expect(doc.info.version).toBe("1.0.0");
  expect(Object.keys(doc.paths)).toContain("/api/v1/account");
});

test("the app-internal API refuses an API key with 403", async ({ request }) => {
  const withKey = await request.post("/api/app/setup", { headers: { authorization: "Bearer fsk_not-a-real-key" }, data: {} });
  expect(withKey.status()).toBe(403);
  expect(await withKey.json()).toEqual({ error: "This action requires a signed-in session, not an API key" });
});

test("the app-internal API answers 401 JSON without a session", async ({ request }) => {
  const res = await request.get("/api/app/me");
  expect(res.status()).toBe(401);
  expect(await res.json()).toEqual({ error: "Unauthorized" });
});

// Our HTTP server (unknown paths, server/http/unrouted-api.ts) and the route wrapper (known paths) must count in one per-address window in the
// real server, not in two separate module copies.
test("unknown /api/v1 paths answer JSON 404 and share the rate-limit window with known routes", async ({ request }) => {
  const unknown = await request.get("/api/v1/no-such-thing");
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ error: "Not found" });
  const before = Number(unknown.headers()["x-ratelimit-remaining"]);
  const known = await request.get("/api/v1/account");
  expect(known.status()).toBe(401);
  const after = Number(known.headers()["x-ratelimit-remaining"]);
  // One fewer, unless the 60-second window happened to roll over between the two requests.
  expect(after === before - 1 || after === 119).toBe(true);
  const wrongMethod = await request.delete("/api/v1/account");
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()["allow"]).toBe("GET");
});
