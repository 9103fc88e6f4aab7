/**
 * The request rate limit of the spec: 120 requests per 60-second window per source address, all /api/v1
 * routes together, counted before authentication; the 121st answers 429 `Rate limit exceeded` with
 * `Retry-After` (seconds until the window resets), and the window resets. X-RateLimit-* headers (beyond the
 * spec, documented in the OpenAPI document) appear on every response. The clock is injected: no sleeping.
 */
import { describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { GET as listWorkspaces } from "@/app/api/v1/workspaces/route";
import { unroutedApiResponse } from "./unrouted-api";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { callJson, callRoute } from "@/server/test/http";

const t = useTestDb();
const T0 = Date.parse("2030-01-01T10:00:00.000Z");

/** Spends `n` requests of `address`'s window without a key: they count even though they answer 401. */
async function spend(n: number, address: string | null): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await callRoute(i % 2 ? getAccount : listWorkspaces, { address });
    expect(res.status).toBe(401);
  }
}

describe("rate limit", () => {
  it("answers 429 with Retry-After on the 121st request of a window, across routes, before authentication", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    setClock(() => new Date(T0));
    await spend(119, "198.51.100.1");
    const last = await callRoute(getAccount, { key: key.value, address: "198.51.100.1" });
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");

    setClock(() => new Date(T0 + 15_000));
    const over = await callJson(getAccount, { key: key.value, address: "198.51.100.1" });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "Rate limit exceeded" });
    expect(over.headers.get("retry-after")).toBe("45");
    expect(over.headers.get("x-ratelimit-limit")).toBe("120");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("x-ratelimit-reset")).toBe(String((T0 + 60_000) / 1000));

    // Unauthenticated requests are refused by the limit too, not answered 401.
    expect((await callRoute(listWorkspaces, { address: "198.51.100.1" })).status).toBe(429);
    // Another source address has its own window.
    expect((await callRoute(getAccount, { key: key.value, address: "198.51.100.2" })).status).toBe(200);
  });

  it("resets the window after 60 seconds", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    setClock(() => new Date(T0));
    await spend(120, "198.51.100.3");
    setClock(() => new Date(T0 + 59_999));
    const still = await callRoute(getAccount, { key: key.value, address: "198.51.100.3" });
    expect(still.status).toBe(429);
    expect(still.headers.get("retry-after")).toBe("1");

    setClock(() => new Date(T0 + 60_000));
    const fresh = await callRoute(getAccount, { key: key.value, address: "198.51.100.3" });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("119");
    expect(fresh.headers.get("x-ratelimit-reset")).toBe(String((T0 + 120_000) / 1000));
  });

  it("counts requests whose address is undeterminable together, so they cannot escape the limit", async () => {
    setClock(() => new Date(T0));
    await spend(120, null);
    expect((await callRoute(getAccount, { address: null })).status).toBe(429);
  });

  it("sends X-RateLimit-* on success and error responses", async () => {
    setClock(() => new Date(T0));
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const ok = await callRoute(getAccount, { key: key.value, address: "198.51.100.4" });
    const refused = await callRoute(getAccount, { address: "198.51.100.4" });
    for (const [res, remaining] of [
      [ok, "119"],
      [refused, "118"],
    ] as const) {
      expect(res.headers.get("x-ratelimit-limit")).toBe("120");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(remaining);
      expect(res.headers.get("x-ratelimit-reset")).toBe(String((T0 + 60_000) / 1000));
    }
  });
});

// Regression: the proxy (now ./unrouted-api.ts, asked by our HTTP server) answered unknown /api/v1 paths
// itself without counting them, so a client could
// probe paths without limit and those answers carried no X-RateLimit-* headers.
describe("unknown /api/v1 paths and methods", () => {
  it("count against the same window and carry the same headers", async () => {
    setClock(() => new Date(T0));
    const address = "198.51.100.7";
    const unknown = unroutedApiResponse("/api/v1/nope", "GET", address)!;
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found" });
    expect(unknown.headers.get("x-ratelimit-remaining")).toBe("119");
    expect(unknown.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const wrongMethod = unroutedApiResponse("/api/v1/account", "DELETE", address)!;
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    expect(wrongMethod.headers.get("x-ratelimit-remaining")).toBe("118");
    // A known route passes through uncounted; its own wrapper counts it in the same window.
    expect(unroutedApiResponse("/api/v1/account", "GET", address)).toBeUndefined();
    const known = await callRoute(getAccount, { address });
    expect(known.headers.get("x-ratelimit-remaining")).toBe("117");
    await spend(117, address);
    const over = unroutedApiResponse("/api/v1/nope", "GET", address)!;
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
  });
});
