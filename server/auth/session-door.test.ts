/**
 * The app-internal API wrapper: it must tell a signed-in member (handler runs), an API key (403 with the
 * spec's exact message, before any session lookup) and nobody (401) apart, and answer bad input and domain
 * errors in the spec's shape. The session lookup is injected, so no browser or next-auth is needed.
 */
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { TActor } from "@/server/domain/access/actor";
import type { TSessionIdentity } from "@/server/domain/access/load-session-actor";
import { defineOperation, type TOperation } from "@/server/domain/operation";
import { defineRoute, type THandler, type TRouteHandler } from "@/server/http/route";
import { resetEnvCache } from "@/server/env";
import { errors } from "@/server/lib/errors";
import { useCapturedLog } from "@/server/test/captured-log";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { loggablePath, publicDoor, sessionDoor, type TSessionLookup } from "./session-door";

const t = useTestDb();

let actor: TSessionIdentity;
beforeEach(async () => {
  const org = await createTestOrg(t.db);
  actor = { userId: org.userId, organisationId: org.organisationId };
});

type TSpec = Partial<Pick<TOperation, "params" | "query" | "body" | "successStatus">>;
const opOf = <const S extends TSpec>(spec: S) =>
  defineOperation({
    operationId: "testThing",
    method: "POST",
    path: "/api/app/things",
    summary: "t",
    tag: "Test",
    internal: true,
    response: z.unknown(),
    ...spec,
  });

/** The session door and the public door around an internal operation made from `spec`. */
function createAppRoutes(lookup: TSessionLookup) {
  return {
    sessionRoute: <const S extends TSpec>(spec: S, handler: THandler<ReturnType<typeof opOf<S>>, TActor>) =>
      defineRoute(sessionDoor(lookup), opOf(spec), handler),
    publicRoute: <const S extends TSpec>(spec: S, handler: THandler<ReturnType<typeof opOf<S>>, null>) => defineRoute(publicDoor, opOf(spec), handler),
  };
}
type TAppRouteHandler = TRouteHandler;
const noParams = { params: Promise.resolve({}) };

/** As the app's own page sends it (same origin), unless `headers` say otherwise. */
function call(route: TAppRouteHandler, init: { method?: string; headers?: Record<string, string>; body?: unknown; params?: Record<string, string> } = {}) {
  const headers = new Headers({ "sec-fetch-site": "same-origin", ...init.headers });
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const req = new Request("http://localhost:3000/api/app/things", {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return route(req, init.params ? { params: Promise.resolve(init.params) } : noParams);
}

describe("the session door", () => {
  it("runs the handler with the signed-in actor and answers { data }", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const route = sessionRoute({}, async ({ actor: a }) => ({ who: a.user.id }));
    const res = await call(route);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { who: actor.userId } });
  });

  it("refuses an API key with 403 and never looks up a session", async () => {
    const lookup = vi.fn(async () => actor);
    const { sessionRoute } = createAppRoutes(lookup);
    const handler = vi.fn(async () => ({}));
    const res = await call(sessionRoute({}, handler), { headers: { authorization: "Bearer fsk_abcdef" } });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This action requires a signed-in session, not an API key" });
    expect(lookup).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers 401 JSON without a session", async () => {
    const { sessionRoute } = createAppRoutes(async () => null);
    const handler = vi.fn(async () => ({}));
    const res = await call(sessionRoute({}, handler));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Unauthorized" });
    // The Bearer challenge is the API door's (a browser session has no scheme to offer).
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers 422 with details by dotted path, and 400 on invalid JSON", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const body = z.object({ name: z.string().min(1, "Name is required"), items: z.array(z.object({ email: z.email("Bad email") })) });
    const route = sessionRoute({ body }, async () => ({}));
    const res = await call(route, { method: "POST", body: { name: "", items: [{ email: "nope" }] } });
    expect(res.status).toBe(422);
    expect((await res.json()).details).toEqual({ name: ["Name is required"], "items.0.email": ["Bad email"] });

    const raw = new Request("http://localhost:3000/api/app/things", {
      method: "POST",
      body: "{oops",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    });
    const bad = await route(raw, noParams);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Invalid JSON body" });
  });

  it("validates route params and passes parsed values, with the declared success status", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const route = sessionRoute({ params: z.object({ id: z.string().startsWith("key_") }), successStatus: 201 }, async ({ params }) => params);
    expect((await call(route, { method: "POST", params: { id: "key_1" } })).status).toBe(201);
    const res = await call(route, { method: "POST", params: { id: "x" } });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).details)).toEqual(["id"]);
  });

  /*
   * Regression: a NUL character (U+0000) cannot be stored by PostgreSQL/PGlite, so one reaching a query used
   * to answer 500 "Internal error". The wrapper refuses it as 422 at its dotted path, in params, query and body.
   */
  it("answers 422 for a NUL character in params, query or body, before the handler touches the database", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const spec = {
      params: z.object({ id: z.string() }),
      query: z.object({ q: z.string().optional() }),
      body: z.object({ name: z.string(), tags: z.array(z.string()) }),
    };
    const route = sessionRoute(spec, async ({ db, params, query, body }) => {
      for (const text of [params.id, query.q ?? "", body.name, ...body.tags]) await db.execute(sql`select ${text}::text`);
      return { ok: true };
    });
    const post = (params: Record<string, string>, body: unknown, search = "") =>
      route(
        new Request(`http://localhost:3000/api/app/things${search}`, {
          method: "POST",
          headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve(params) },
      );
    expect((await post({ id: "a" }, { name: "n", tags: ["t"] }, "?q=x")).status).toBe(200);

    const inParams = await post({ id: "a\u0000" }, { name: "n", tags: [] });
    expect(inParams.status).toBe(422);
    expect(await inParams.json()).toEqual({ error: "Validation failed", details: { id: ["Must not contain NUL characters"] } });

    const inQuery = await post({ id: "a" }, { name: "n", tags: [] }, "?q=a%00b");
    expect(inQuery.status).toBe(422);
    expect(await inQuery.json()).toEqual({ error: "Validation failed", details: { q: ["Must not contain NUL characters"] } });

    const inBody = await post({ id: "a" }, { name: "a\u0000b", tags: ["ok", "\u0000"] });
    expect(inBody.status).toBe(422);
    expect(await inBody.json()).toEqual({
      error: "Validation failed",
      details: { name: ["Must not contain NUL characters"], "tags.1": ["Must not contain NUL characters"] },
    });
  });

  it("maps AppError through the shared table and hides unexpected errors", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const conflict = await call(sessionRoute({}, async () => Promise.reject(errors.conflict("At most 50 active keys"))));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: "At most 50 active keys" });

    const boom = await call(sessionRoute({}, async () => Promise.reject(new Error("secret internals"))));
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ error: "Internal error" });
    expect(boom.headers.get("x-request-id")).toBeTruthy();
  });
});

/*
 * Regression (issue 24, item 3): a `text/plain` form or a `no-cors` fetch from another port of the same host
 * (a sibling subdomain in production) is same-site, so it carried the owner's cookies; the door refused only
 * `Sec-Fetch-Site: cross-site` and parsed any body as JSON, and the page created a workspace and roles. A
 * write must now come from the app's own origin, with the body type its operation reads.
 */
describe("writes only from the app's own origin (both doors)", () => {
  const WRITES = ["POST", "PUT", "PATCH", "DELETE"] as const;
  const APP = "http://localhost:3000"; // vitest.config.ts: PUBLIC_URL
  const refusedOrigin = { error: "Cross-origin request refused" };

  it("accepts Sec-Fetch-Site: same-origin, or, without it, an Origin equal to PUBLIC_URL's", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const route = sessionRoute({}, async () => ({ ok: true }));
    for (const method of WRITES) {
      expect((await call(route, { method, headers: { "sec-fetch-site": "same-origin" } })).status).toBe(200);
      expect((await call(route, { method, headers: { "sec-fetch-site": "same-origin", origin: APP } })).status).toBe(200);
      // An older browser, or plain http to a host that is not loopback: no Sec-Fetch-Site, only Origin.
      const noFetchMetadata = new Request(`${APP}/api/app/things`, { method, headers: { origin: APP } });
      expect((await route(noFetchMetadata, noParams)).status).toBe(200);
    }
  });

  const foreign: [string, Record<string, string>][] = [
    ["another port of the same host (same-site)", { "sec-fetch-site": "same-site", origin: "http://localhost:3001" }],
    ["a sibling origin that claims the app's Origin", { "sec-fetch-site": "same-site", origin: APP }],
    ["another site", { "sec-fetch-site": "cross-site", origin: "https://evil.example.com" }],
    ["a navigation typed by the user", { "sec-fetch-site": "none" }],
    ["no Sec-Fetch-Site, another port", { origin: "http://localhost:3001" }],
    ["no Sec-Fetch-Site, another name of the same host", { origin: "http://127.0.0.1:3000" }],
    ["no Sec-Fetch-Site, another scheme", { origin: "https://localhost:3000" }],
    ["no Sec-Fetch-Site, an opaque origin", { origin: "null" }],
    ["neither header (not a browser)", {}],
  ];

  it.each(foreign)("refuses a write from %s with 403, before the session lookup and the handler", async (_label, headers) => {
    const lookup = vi.fn(async () => actor);
    const handler = vi.fn(async () => ({}));
    const { sessionRoute, publicRoute } = createAppRoutes(lookup);
    const publicHandler = vi.fn(async () => ({}));
    for (const method of WRITES) {
      for (const route of [sessionRoute({}, handler), publicRoute({}, publicHandler)]) {
        const req = new Request(`${APP}/api/app/things`, { method, headers: { "content-type": "application/json", ...headers }, body: "{}" });
        const res = await route(req, noParams);
        expect(res.status).toBe(403);
        expect(await res.json()).toEqual(refusedOrigin);
      }
    }
    expect(lookup).not.toHaveBeenCalled();
    expect(handler).not.toHaveBeenCalled();
    expect(publicHandler).not.toHaveBeenCalled();
  });

  it("leaves reads open to any origin (a GET changes nothing)", async () => {
    const { sessionRoute } = createAppRoutes(async () => actor);
    const route = sessionRoute({}, async () => ({ ok: true }));
    expect((await call(route, { headers: { "sec-fetch-site": "same-site", origin: "http://localhost:3001" } })).status).toBe(200);
    expect((await route(new Request(`${APP}/api/app/things`), noParams)).status).toBe(200);
  });

  it("takes the origin of PUBLIC_URL (scheme, host, port), not its path", async () => {
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = "https://sign.example.com/foliosign/";
    resetEnvCache();
    try {
      const { sessionRoute } = createAppRoutes(async () => actor);
      const route = sessionRoute({}, async () => ({ ok: true }));
      const post = (origin: string) =>
        route(new Request("https://sign.example.com/foliosign/api/app/things", { method: "POST", headers: { origin } }), noParams);
      expect((await post("https://sign.example.com")).status).toBe(200);
      expect((await post("https://SIGN.example.com")).status).toBe(200);
      expect((await post("https://sign.example.com/foliosign")).status).toBe(403);
      expect((await post("https://docs.example.com")).status).toBe(403);
      expect((await post("http://sign.example.com")).status).toBe(403);
    } finally {
      process.env.PUBLIC_URL = before;
      resetEnvCache();
    }
  });

  it("needs Content-Type application/json for a JSON body (415 otherwise, the body unread)", async () => {
    const handler = vi.fn(async () => ({ ok: true }));
    const { sessionRoute, publicRoute } = createAppRoutes(async () => actor);
    const body = z.object({ name: z.string() });
    for (const route of [sessionRoute({ body }, handler), publicRoute({ body }, handler)]) {
      const send = (contentType: string | null) =>
        route(
          new Request(`${APP}/api/app/things`, {
            method: "POST",
            headers: { "sec-fetch-site": "same-origin", ...(contentType === null ? {} : { "content-type": contentType }) },
            body: JSON.stringify({ name: "Evil" }),
          }),
          noParams,
        );
      for (const type of [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "application/json-patch+json",
        null,
      ]) {
        // A string body without a declared type is sent by fetch as text/plain; null here sends none at all.
        const res = await send(type);
        expect(res.status, String(type)).toBe(415);
        expect(await res.json()).toEqual({ error: "Content-Type must be application/json" });
      }
      expect(handler).not.toHaveBeenCalled();
      for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
        expect((await send(type)).status, type).toBe(200);
      }
      handler.mockClear();
    }
  });

  it("needs one of the operation's declared types for a raw body (a signature PNG, a PDF)", async () => {
    const { publicRoute } = createAppRoutes(async () => null);
    const route = defineRoute(publicDoor, { ...opOf({}), method: "PUT", rawBodyTypes: ["image/png"] }, async () => ({ ok: true }));
    const send = (contentType: string) =>
      route(
        new Request(`${APP}/api/app/things`, { method: "PUT", headers: { "sec-fetch-site": "same-origin", "content-type": contentType }, body: "x" }),
        noParams,
      );
    expect((await send("image/png")).status).toBe(200);
    for (const type of ["text/plain", "multipart/form-data", "application/json", "image/jpeg"]) {
      const res = await send(type);
      expect(res.status, type).toBe(415);
      expect(await res.json()).toEqual({ error: "Content-Type must be image/png" });
    }
    // An operation without a body ignores the type: an empty POST (hold, revoke, open) is judged by its origin only.
    const bare = publicRoute({}, async () => ({ ok: true }));
    expect((await bare(new Request(`${APP}/api/app/things`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } }), noParams)).status).toBe(200);
  });
});

describe("the public door", () => {
  it("runs without a session but still refuses API keys", async () => {
    const { publicRoute } = createAppRoutes(async () => null);
    const route = publicRoute({}, async ({ actor: a }) => ({ actor: a }));
    expect(await (await call(route)).json()).toEqual({ data: { actor: null } });
    expect((await call(route, { headers: { authorization: "bearer fsk_x" } })).status).toBe(403);
  });
});

/*
 * Regression: an unexpected error was logged with the request's full path, and for
 * /api/app/invites/{token}/accept that path holds a one-time invite token — a credential written to the log.
 * The logged path names each route param instead of its value.
 */
describe("the unexpected-error log", () => {
  const log = useCapturedLog();

  it("masks route params in the logged path, so an invite token never reaches the log", async () => {
    const token = "tok-ABCdef0123456789_secret";
    const { publicRoute } = createAppRoutes(async () => null);
    const route = publicRoute({ params: z.object({ token: z.string() }) }, async () => Promise.reject(new Error("boom")));
    const req = new Request(`http://localhost:3000/api/app/invites/${token}/accept`, { method: "POST", headers: { "sec-fetch-site": "same-origin" } });
    const res = await route(req, { params: Promise.resolve({ token }) });
    expect(res.status).toBe(500);
    const logged = log()
      .records()
      .find((r) => r.msg === "app request" && r.status === 500);
    expect(logged?.path).toBe("/api/app/invites/[token]/accept");
    expect(log().lines.join("\n")).not.toContain(token);
  });

  it("names catch-all and encoded params too, and leaves other segments", async () => {
    const req = new Request("http://localhost:3000/api/app/files/a%20b/c/x");
    expect(await loggablePath(req, Promise.resolve({ parts: ["a b", "c"] }))).toBe("/api/app/files/[parts]/[parts]/x");
    expect(await loggablePath(req, Promise.reject(new Error("no params")))).toBe("[unavailable]");
  });
});
