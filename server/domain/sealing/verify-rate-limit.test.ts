/**
 * Protects the public /verify upload from floods: it has a rate limit of its own per client address
 * (VERIFY_RATE_LIMIT per 60-second window), answered with the spec's 429 (`{ error: "Rate limit exceeded" }`,
 * Retry-After and the X-RateLimit headers) before the upload is read; another address, and the /api/v1 limit,
 * are counted apart; a forged X-Forwarded-For does not get a fresh count; the window reopens on time.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as verifyRoute } from "@/app/api/app/verify/route";
import { resetEnvCache } from "@/server/env";
import { takeRateLimit } from "@/server/http/steps/rate-limit";
import { setClock } from "@/server/lib/clock";
import { useTestDb } from "@/server/test/db";
import { callRoute } from "@/server/test/http";
import { makeOriginal } from "@/server/test/sealing-fixtures";

useTestDb();
const start = new Date("2026-05-04T10:00:00Z");
let clock = start;
let pdf: Uint8Array;

beforeEach(async () => {
  clock = start;
  setClock(() => clock);
  process.env.VERIFY_RATE_LIMIT = "3";
  resetEnvCache();
  pdf ??= await makeOriginal(1);
});
afterEach(() => {
  setClock(undefined);
  delete process.env.VERIFY_RATE_LIMIT;
  resetEnvCache();
});

async function verify(address: string, headers: Record<string, string> = {}) {
  const res = await callRoute(verifyRoute, {
    address,
    rawBody: Buffer.from(pdf).toString("latin1"),
    headers: { "content-type": "application/pdf", ...headers },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { data?: { sealedHere: boolean }; error?: string } };
}

describe("POST /api/app/verify rate limit", () => {
  it("answers 429 in the spec's shape past VERIFY_RATE_LIMIT per address, counted apart from other addresses and the API", async () => {
    for (let i = 0; i < 3; i++) {
      const ok = await verify("198.51.100.7");
      expect(ok.status).toBe(200);
      expect(ok.body.data?.sealedHere).toBe(false);
      expect(ok.headers.get("x-ratelimit-limit")).toBe("3");
      expect(ok.headers.get("x-ratelimit-remaining")).toBe(String(2 - i));
    }
    clock = new Date(start.getTime() + 20_000);
    const refused = await verify("198.51.100.7");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: "Rate limit exceeded" });
    expect(refused.headers.get("retry-after")).toBe("40");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");

    // A forged forwarding header is not an address: the socket's is counted.
    expect((await verify("198.51.100.7", { "x-forwarded-for": "192.0.2.44" })).status).toBe(429);
    // Another client is not affected, and the /api/v1 limiter keeps its own count for this address.
    expect((await verify("198.51.100.8")).status).toBe(200);
    expect(takeRateLimit("198.51.100.7").remaining).toBe(119);

    // The window reopens after 60 seconds.
    clock = new Date(start.getTime() + 60_000);
    expect((await verify("198.51.100.7")).status).toBe(200);
  });

  it("refuses before reading the upload: an over-limit empty body is 429, not 400", async () => {
    for (let i = 0; i < 3; i++) expect((await verify("198.51.100.9")).status).toBe(200);
    const res = await callRoute(verifyRoute, { address: "198.51.100.9", rawBody: "", headers: { "content-type": "application/pdf" } });
    expect(res.status).toBe(429);
  });
});
