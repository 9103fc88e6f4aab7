/**
 * The client address behind rate limiting and the IP allowlist comes from the socket, never from a header a
 * client can forge (stack notes, "Client address"). These tests run our real HTTP server on 127.0.0.1 around
 * a tiny handler that feeds the real /api/v1/account route, and show that a forged X-Forwarded-For (or a
 * forged copy of our private header) neither escapes the rate limit nor passes the allowlist; forwarded
 * headers count only when the socket peer is a proxy the operator listed.
 */
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { organisations } from "@/server/db/schema";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { createHttpServer, resolveClientAddress, type TNextHandler } from "./http-server";

const t = useTestDb();
let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** What Next does with the node request, reduced to one route: the headers become a web Request's headers. */
const accountHandler: TNextHandler = async (req, res) => {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  const response = await getAccount(new Request(`http://localhost${req.url}`, { method: req.method, headers }), {
    params: Promise.resolve({}),
  });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(await response.text());
};

const echoHandler: TNextHandler = async (req, res) => {
  res.end(JSON.stringify({ address: req.headers[CLIENT_ADDRESS_HEADER] ?? null }));
};

async function listen(handler: TNextHandler, trustedProxies: string[] = []): Promise<string> {
  server = createHttpServer(handler, trustedProxies);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("resolveClientAddress", () => {
  it("uses the socket peer and ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(resolveClientAddress("198.51.100.9", "203.0.113.5", [])).toBe("198.51.100.9");
    expect(resolveClientAddress("::ffff:198.51.100.9", undefined, [])).toBe("198.51.100.9");
    expect(resolveClientAddress("2001:db8::1", "203.0.113.5", [])).toBe("2001:db8::1");
  });

  it("ignores X-Forwarded-For when the peer is not a trusted proxy", () => {
    expect(resolveClientAddress("198.51.100.9", "203.0.113.5", ["10.0.0.0/8"])).toBe("198.51.100.9");
  });

  it("behind a trusted proxy takes the right-most hop that is not a trusted proxy", () => {
    // The client forged 203.0.113.5; the proxy appended the real peer 198.51.100.9.
    expect(resolveClientAddress("10.0.0.2", "203.0.113.5, 198.51.100.9", ["10.0.0.0/8"])).toBe("198.51.100.9");
    expect(resolveClientAddress("10.0.0.2", ["203.0.113.5", "198.51.100.9, 10.0.0.3"], ["10.0.0.0/8"])).toBe("198.51.100.9");
  });

  it("is undeterminable (null) rather than guessed", () => {
    expect(resolveClientAddress(undefined, "203.0.113.5", [])).toBeNull();
    expect(resolveClientAddress("10.0.0.2", undefined, ["10.0.0.0/8"])).toBeNull();
    expect(resolveClientAddress("10.0.0.2", "10.0.0.3", ["10.0.0.0/8"])).toBeNull();
    expect(resolveClientAddress("10.0.0.2", "203.0.113.5, garbage", ["10.0.0.0/8"])).toBeNull();
  });
});

describe("createHttpServer", () => {
  it("records the socket address and drops a forged copy of the private header", async () => {
    const base = await listen(echoHandler);
    const res = await fetch(base, { headers: { [CLIENT_ADDRESS_HEADER]: "203.0.113.5", "x-forwarded-for": "203.0.113.5" } });
    expect(await res.json()).toEqual({ address: "127.0.0.1" });
  });

  it("believes X-Forwarded-For from a configured proxy", async () => {
    const base = await listen(echoHandler, ["127.0.0.1"]);
    const res = await fetch(base, { headers: { "x-forwarded-for": "203.0.113.5, 198.51.100.9" } });
    expect(await res.json()).toEqual({ address: "198.51.100.9" });
  });

  it("a forged X-Forwarded-For does not escape the rate limit", async () => {
    const base = await listen(accountHandler);
    for (let i = 0; i < 120; i++) {
      const res = await fetch(`${base}/api/v1/account`, { headers: { "x-forwarded-for": `198.51.100.${i}` } });
      expect(res.status).toBe(401);
    }
    const res = await fetch(`${base}/api/v1/account`, {
      headers: { "x-forwarded-for": "203.0.113.200", [CLIENT_ADDRESS_HEADER]: "203.0.113.201" },
    });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: "Rate limit exceeded" });
  });

  it("a forged X-Forwarded-For does not pass the IP allowlist", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    await t.db.update(organisations).set({ ipAllowlist: ["203.0.113.0/24"] }).where(eq(organisations.id, org.organisationId));
    const base = await listen(accountHandler);
    const forged = await fetch(`${base}/api/v1/account`, {
      headers: { authorization: `Bearer ${key.value}`, "x-forwarded-for": "203.0.113.5", [CLIENT_ADDRESS_HEADER]: "203.0.113.6" },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: "IP address not allowed" });

    // Control: the same request from an allowed socket address passes.
    await t.db.update(organisations).set({ ipAllowlist: ["127.0.0.1"] }).where(eq(organisations.id, org.organisationId));
    const allowed = await fetch(`${base}/api/v1/account`, { headers: { authorization: `Bearer ${key.value}` } });
    expect(allowed.status).toBe(200);
  });
});

describe("unknown /api/v1 paths and methods", () => {
  it("are answered with the API's JSON 404/405 before Next; known routes, and everything outside /api/v1, reach Next", async () => {
    const reached: string[] = [];
    const base = await listen(async (req, res) => {
      reached.push(`${req.method} ${req.url}`);
      res.end("next");
    });
    const unknown = await fetch(`${base}/api/v1/no-such-thing?x=1`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toMatch(/application\/json/);
    expect(await unknown.json()).toEqual({ error: "Not found" });
    expect(unknown.headers.get("x-ratelimit-limit")).toBe("120");
    expect(unknown.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const wrongMethod = await fetch(`${base}/api/v1/account`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    expect(await wrongMethod.json()).toMatchObject({ error: expect.any(String) });
    expect(reached).toEqual([]);

    for (const path of ["/api/v1/account", "/api/v1/packages/pkg_x/send", "/api/v1/packages?status=DRAFT", "/api/app/me", "/packages", "/api/v1x"]) {
      const method = path.endsWith("/send") ? "POST" : "GET";
      const res = await fetch(`${base}${path}`, { method });
      expect(await res.text()).toBe("next");
    }
    expect(reached).toEqual([
      "GET /api/v1/account",
      "POST /api/v1/packages/pkg_x/send",
      "GET /api/v1/packages?status=DRAFT",
      "GET /api/app/me",
      "GET /packages",
      "GET /api/v1x",
    ]);
  });
});
