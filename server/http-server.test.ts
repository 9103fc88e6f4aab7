/**
 * The client address behind rate limiting and the IP allowlist comes from the socket, never from a header a
 * client can forge (stack notes, "Client address"). These tests run our real HTTP server on 127.0.0.1 around
 * a tiny handler that feeds the real /api/v1/account route, and show that a forged X-Forwarded-For (or a
 * forged copy of our private header) neither escapes the rate limit nor passes the allowlist; forwarded
 * headers count only when the socket peer is a proxy the operator listed.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as getAccount } from "@/app/api/v1/account/route";
import { organisations } from "@/server/db/schema";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { PAGE_PATH_HEADER } from "@/server/http/steps/page-path";
import { MALFORMED_PATH_MESSAGE } from "@/server/http/unrouted-api";
import { useCapturedLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { createTestKey, createTestOrg } from "@/server/test/factories";
import { apiRoute } from "@/server/http/api-route";
import type { TRouteHandler } from "@/server/http/route";
import { defineOperation } from "@/server/domain/operation";
import { errors } from "@/server/lib/errors";
import { z } from "@/server/lib/zod";
import { createHttpServer, loggableServerPath, NOT_FOUND_PATH, resolveClientAddress, type TNextHandler } from "./http-server";

const t = useTestDb();
let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** What Next does with the node request, reduced to one route: the headers become a web Request's headers. */
const nextWithRoute =
  (route: TRouteHandler): TNextHandler =>
  async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const response = await route(new Request(`http://localhost${req.url}`, { method: req.method, headers }), {
      params: Promise.resolve({}),
    });
    // Like Next: the headers one by one, so the server can read the request id back.
    res.statusCode = response.status;
    for (const [name, value] of response.headers) res.appendHeader(name, value);
    res.end(await response.text());
  };
const accountHandler = nextWithRoute(getAccount);

const echoHandler: TNextHandler = async (req, res) => {
  res.end(JSON.stringify({ address: req.headers[CLIENT_ADDRESS_HEADER] ?? null, page: req.headers[PAGE_PATH_HEADER] ?? null }));
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
    expect(await res.json()).toEqual({ address: "127.0.0.1", page: "/" });
  });

  it("names the page asked for, and drops a forged copy of that header", async () => {
    const base = await listen(echoHandler);
    const page = await fetch(`${base}/packages/pkg_1?tab=audit&_rsc=x1`, { headers: { [PAGE_PATH_HEADER]: "/elsewhere" } });
    expect(await page.json()).toEqual({ address: "127.0.0.1", page: "/packages/pkg_1?tab=audit" });
    const write = await fetch(`${base}/packages`, { method: "POST", headers: { [PAGE_PATH_HEADER]: "//evil.example.com" } });
    expect(await write.json()).toEqual({ address: "127.0.0.1", page: null });
  });

  it("keeps an idle keep-alive connection open past Node's 5 s default, so a client's reuse is not reset", async () => {
    const base = await listen(echoHandler);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<boolean>((resolve, reject) => {
        const req = http.get(base, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(req.reusedSocket));
        });
        req.on("error", reject);
      });
    try {
      expect(await get()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await get()).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it("believes X-Forwarded-For from a configured proxy", async () => {
    const base = await listen(echoHandler, ["127.0.0.1"]);
    const res = await fetch(base, { headers: { "x-forwarded-for": "203.0.113.5, 198.51.100.9" } });
    expect(await res.json()).toEqual({ address: "198.51.100.9", page: "/" });
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
    await t.db
      .update(organisations)
      .set({ ipAllowlist: ["203.0.113.0/24"] })
      .where(eq(organisations.id, org.organisationId));
    const base = await listen(accountHandler);
    const forged = await fetch(`${base}/api/v1/account`, {
      headers: { authorization: `Bearer ${key.value}`, "x-forwarded-for": "203.0.113.5", [CLIENT_ADDRESS_HEADER]: "203.0.113.6" },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ error: "IP address not allowed" });

    // Control: the same request from an allowed socket address passes.
    await t.db
      .update(organisations)
      .set({ ipAllowlist: ["127.0.0.1"] })
      .where(eq(organisations.id, org.organisationId));
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

/*
 * Regression (integrator audit): an upload URL asked with another method than PUT reached Next, which answered an
 * empty 405 with no Allow header, unlike the JSON 404/405 the README promises for unknown paths and methods.
 */
describe("upload URLs asked with another method", () => {
  it("answer a JSON 405 with Allow: PUT before Next (a path under /uploads that is none a JSON 404); PUT and OPTIONS reach Next", async () => {
    const reached: string[] = [];
    const base = await listen(async (req, res) => {
      reached.push(`${req.method} ${req.url}`);
      res.end("next");
    });
    for (const method of ["POST", "DELETE", "GET", "PATCH"]) {
      const res = await fetch(`${base}/uploads/tok_secret`, { method });
      expect([method, res.status, res.headers.get("allow"), res.headers.get("content-type")]).toEqual([
        method,
        405,
        "PUT",
        expect.stringMatching(/^application\/json/),
      ]);
      expect(await res.json()).toEqual({ error: "Method not allowed" });
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
    const head = await fetch(`${base}/uploads/tok_secret`, { method: "HEAD" });
    expect([head.status, head.headers.get("allow")]).toEqual([405, "PUT"]);
    for (const path of ["/uploads", "/uploads/tok/extra"]) {
      const res = await fetch(`${base}${path}`, { method: "PUT", body: "x" });
      expect([path, res.status, await res.json()]).toEqual([path, 404, { error: "Not found" }]);
    }
    expect(reached).toEqual([]);

    expect(await (await fetch(`${base}/uploads/tok_secret`, { method: "PUT", body: "%PDF-" })).text()).toBe("next");
    expect(await (await fetch(`${base}/uploads/tok_secret`, { method: "OPTIONS" })).text()).toBe("next");
    expect(reached).toEqual(["PUT /uploads/tok_secret", "OPTIONS /uploads/tok_secret"]);
  });
});

/**
 * What Next 16 does with a path (reproduced on a production build, see ./http/unrouted-api.ts `pathDecodes`):
 * a segment matched against a dynamic route is decoded, and when that fails the answer is a plain-text 500 with
 * nothing logged; an address no route serves is its 404 page. Every path here is "dynamic".
 */
function nextLike(reached: string[]): TNextHandler {
  return async (req, res) => {
    reached.push(`${req.method} ${req.url}`);
    const pathname = (req.url ?? "/").split("?", 1)[0]!;
    try {
      pathname.split("/").forEach((segment) => decodeURIComponent(segment));
    } catch {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
      return;
    }
    if (pathname === NOT_FOUND_PATH) {
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" });
      res.end("<!DOCTYPE html><title>Page not found</title>");
      return;
    }
    res.end("next");
  };
}

/** A raw request: fetch() would normalise what these tests send on purpose. */
function rawRequest(base: string, method: string, target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: target }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("paths that do not decode (issue 24: a plain-text 500 before authentication, nothing logged)", () => {
  it("answer a JSON 400 on /api and /uploads, without reaching Next; /api/v1 counts them against the rate limit", async () => {
    const reached: string[] = [];
    const base = await listen(nextLike(reached));
    const cases: [string, string][] = [
      ["GET", "/api/v1/packages/%ff"],
      ["GET", "/api/v1/packages/%"],
      ["PUT", "/uploads/%"],
      ["GET", "/api/app/sign/x/fields/%ff"],
      ["PUT", "/api/app/sign/x/fields/%ff"],
      ["PATCH", "/api/app/roles/%ff"],
      ["GET", "/api/v1/packages/pkg_1/documents/%E0%A4%A"], // a truncated UTF-8 sequence
      ["POST", "/api/v1/packages/%ED%A0%80/send"], // a UTF-16 surrogate encoded as UTF-8 (forbidden)
      ["GET", "/api/v1/no-such-thing/%C0%AF"], // an overlong encoding of "/"
      ["DELETE", "/api/auth/%zz"],
    ];
    for (const [method, path] of cases) {
      const res = await rawRequest(base, method, `${path}?q=1`);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({ error: MALFORMED_PATH_MESSAGE });
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers["x-ratelimit-limit"]).toBe(path.startsWith("/api/v1/") ? "120" : undefined);
    }
    expect(reached).toEqual([]);
  });

  it("give pages the app's HTML 404 (Next renders it for a path no route serves)", async () => {
    const reached: string[] = [];
    const base = await listen(nextLike(reached));
    for (const path of ["/sign/%ff", "/sign/%", "/invite/%E2%82", "/packages/%ff%fe", "/templates/%00", "/packages/a%00b"]) {
      const res = await rawRequest(base, "GET", path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
    }
    expect(reached).toEqual(Array(6).fill(`GET ${NOT_FOUND_PATH}`));
  });

  it("leave every path that decodes to Next, untouched (a NUL in an API param is the route's 422)", async () => {
    const reached: string[] = [];
    const base = await listen(nextLike(reached));
    const paths = [
      "/sign/abc%20d",
      "/api/v1/packages/pkg_1",
      "/api/v1/webhooks/%00",
      "/api/app/roles/r%C3%A9le",
      "/packages/%F0%9F%98%80?x=%ff",
      "/uploads/tok%2Fen",
    ];
    // An upload URL takes PUT only (another method is answered before Next: see "upload URLs asked with another method").
    const methodOf = (path: string) => (path.startsWith("/uploads/") ? "PUT" : "GET");
    for (const path of paths) expect(await (await rawRequest(base, methodOf(path), path)).body, path).toBe("next");
    expect(reached).toEqual(paths.map((p) => `${methodOf(p)} ${p}`));
  });

  it("answer a request target that is not a path (`*`) with a JSON 400; an absolute-form target is checked like a path", async () => {
    const reached: string[] = [];
    const base = await listen(nextLike(reached));
    const star = await rawRequest(base, "OPTIONS", "*");
    expect(star.status).toBe(400);
    expect(JSON.parse(star.body)).toEqual({ error: MALFORMED_PATH_MESSAGE });
    const absolute = await rawRequest(base, "GET", `${base}/api/v1/packages/%ff`);
    expect(absolute.status).toBe(400);
    expect((await rawRequest(base, "GET", `${base}/api/v1/account`)).body).toBe("next");
    expect(reached).toEqual([`GET ${base}/api/v1/account`]);
  });
});

describe("every 5xx answer is logged, whoever made it", () => {
  const log = useCapturedLog();
  const records = () => log().records();

  it("logs a 500 that Next answered without logging, and a 502 as a warning, with the path minus its token and query", async () => {
    // Next sets headers one by one (appendHeader), so the server can read the request id back.
    const base = await listen(async (req, res) => {
      res.statusCode = req.url!.startsWith("/api/app/sign") ? 502 : req.url!.startsWith("/fine") ? 404 : 500;
      res.appendHeader("x-request-id", "req-1");
      res.end("Internal Server Error");
    });
    await rawRequest(base, "GET", "/sign/tok_secret?x=1");
    await rawRequest(base, "POST", "/api/app/sign/tok_secret/fields/f1");
    await rawRequest(base, "GET", "/fine");
    await new Promise((resolve) => setImmediate(resolve));
    expect(records().map(({ level, msg, method, path, status, requestId }) => ({ level, msg, method, path, status, requestId }))).toEqual([
      { level: 50, msg: "server error response", method: "GET", path: "/sign/[token]", status: 500, requestId: "req-1" },
      { level: 40, msg: "server error response", method: "POST", path: "/api/app/sign/[token]/fields/f1", status: 502, requestId: "req-1" },
    ]);
    expect(log().lines.join("\n")).not.toContain("tok_secret");
  });

  it("logs what Next's handler throws with the project logger, and answers a JSON 500", async () => {
    const base = await listen(async () => {
      throw new Error("next exploded");
    });
    const res = await rawRequest(base, "PUT", "/uploads/tok_secret");
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body)).toEqual({ error: "Internal error" });
    await new Promise((resolve) => setImmediate(resolve));
    const logged = records();
    // Once: the line with the error; no second "server error response" line for the same answer.
    expect(logged.map((r) => [r.level, r.msg, r.path, r.status])).toEqual([[50, "unhandled error in the HTTP server", "/uploads/[token]", 500]]);
    expect((logged[0]!.err as { message: string }).message).toBe("next exploded");
  });

  it("logs a 5xx a route answered once: the route's request line, with the operation (and the error of a 500)", async () => {
    const org = await createTestOrg(t.db);
    const key = await createTestKey(t.db, org);
    const failing = (operationId: string, err: Error) =>
      apiRoute(
        defineOperation({ operationId, method: "GET", path: `/api/v1/${operationId}`, summary: "fails", tag: "Test", response: z.object({}) }),
        async () => {
          throw err;
        },
      );
    const explode = nextWithRoute(failing("explode", new Error("database exploded")));
    const convert = nextWithRoute(failing("convert", errors.badGateway("The converter did not answer")));
    // A path of the route table (the server answers unknown /api/v1 paths itself); the query picks the route.
    const base = await listen((req, res) => (req.url!.endsWith("?explode") ? explode : convert)(req, res));
    const res = await fetch(`${base}/api/v1/account?explode`, { headers: { authorization: `Bearer ${key.value}` } });
    expect(res.status).toBe(500);
    expect((await fetch(`${base}/api/v1/account?convert`, { headers: { authorization: `Bearer ${key.value}` } })).status).toBe(502);
    await new Promise((resolve) => setImmediate(resolve));
    const logged = records();
    expect(logged.map(({ level, msg, status, operationId, requestId }) => ({ level, msg, status, operationId, requestId }))).toEqual([
      { level: 50, msg: "api request", status: 500, operationId: "explode", requestId: res.headers.get("x-request-id") },
      { level: 40, msg: "api request", status: 502, operationId: "convert", requestId: expect.any(String) },
    ]);
    expect((logged[0]!.err as { message: string }).message).toBe("database exploded");
    expect(logged[1]!.err).toBeUndefined();
  });

  it("loggableServerPath hides the token segments only", () => {
    expect(loggableServerPath("/invite/abc")).toBe("/invite/[token]");
    expect(loggableServerPath("/api/app/invites/abc/accept")).toBe("/api/app/invites/[token]/accept");
    expect(loggableServerPath("/api/v1/packages/pkg_1/signing-url")).toBe("/api/v1/packages/pkg_1/signing-url");
    expect(loggableServerPath("/sign/")).toBe("/sign/");
  });
});
