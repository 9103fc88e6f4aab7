/**
 * Regression (issue 24, item 3): from another port of the same host — a sibling subdomain in production, same
 * SITE, so SameSite=Lax cookies go along — a `text/plain` form and a `no-cors` fetch created a workspace and
 * two full-permission roles as the signed-in owner. This sweeps every write route of the app's API (both the
 * session door and the public one: setup, invites, the signing page's /api/app/sign/*, /verify), as Next calls
 * them, signed in as the owner: a write from another origin is 403 and one whose body is of another type than
 * the operation reads is 415, and neither writes a row anywhere. The browser-level proof is
 * e2e/ui/14-same-origin-writes.spec.ts.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/client";
import type { TRouteHandler } from "@/server/http/route";
import { useTestDb } from "@/server/test/db";
import { createTestOrg } from "@/server/test/factories";
import { setSessionLookup } from "./app-route";

const t = useTestDb();
const APP = "http://localhost:3000"; // vitest.config.ts: PUBLIC_URL
const SIBLING = "http://localhost:3001";

type TWrite = { key: string; route: TRouteHandler };

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

async function appWrites(): Promise<TWrite[]> {
  const found: TWrite[] = [];
  for (const file of routeFiles(path.resolve("app/api/app"))) {
    const mod = (await import(file)) as Record<string, TRouteHandler | undefined>;
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const route = mod[method];
      if (route) found.push({ key: `${method} ${route.operation.path}`, route });
    }
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** The request a page on another origin can make without asking the browser first (no preflight). */
function send(route: TRouteHandler, headers: Record<string, string>, body = '{"name":"Evil","x":"="}') {
  const op = route.operation;
  const url = `${APP}${op.path.replace(/\{(\w+)\}/g, "x_$1")}`;
  return route(new Request(url, { method: op.method, headers, body }), { params: Promise.resolve({}) });
}

/** Rows per table: a refused request must leave every one as it was. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await queryRows<{ tablename: string }>(t.db, sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  const counts: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [row] = await queryRows<{ n: number }>(t.db, sql.raw(`select count(*)::int as n from "${tablename}"`));
    counts[tablename] = row!.n;
  }
  return counts;
}

let writes: TWrite[];
beforeEach(async () => {
  writes ??= await appWrites();
  const org = await createTestOrg(t.db);
  setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
});
afterEach(() => setSessionLookup(undefined));

describe("every write of the app's API, signed in as the owner", () => {
  it("finds the app's write routes, the signing page's and the raw uploads among them", () => {
    const keys = writes.map((w) => w.key);
    expect(keys.length).toBeGreaterThan(50);
    for (const key of [
      "POST /api/app/workspaces",
      "POST /api/app/roles",
      "POST /api/app/setup",
      "POST /api/app/sign/{token}/finish",
      "PUT /api/app/sign/{token}/fields/{fieldId}/image",
      "PUT /api/app/library/documents",
      "POST /api/app/verify",
    ]) {
      expect(keys).toContain(key);
    }
  });

  it("refuses a text/plain form or no-cors fetch from a sibling origin (403), writing nothing", async () => {
    const before = await rowCounts();
    const from: Record<string, string>[] = [
      { "sec-fetch-site": "same-site", origin: SIBLING, "content-type": "text/plain" },
      { "sec-fetch-site": "same-site", origin: SIBLING, "content-type": "application/json" },
      { origin: SIBLING, "content-type": "text/plain" },
      { "content-type": "application/json" },
    ];
    for (const { key, route } of writes) {
      for (const headers of from) {
        const res = await send(route, headers);
        expect(res.status, `${key} ${JSON.stringify(headers)}`).toBe(403);
        expect(await res.json()).toEqual({ error: "Cross-origin request refused" });
      }
    }
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses, from the app's own origin, a body of another type than the operation reads (415), writing nothing", async () => {
    const before = await rowCounts();
    let checked = 0;
    for (const { key, route } of writes) {
      const expected = route.operation.body ? ["application/json"] : route.operation.rawBodyTypes;
      if (!expected) continue;
      checked++;
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
        const res = await send(route, { "sec-fetch-site": "same-origin", origin: APP, "content-type": type });
        expect(res.status, `${key} ${type}`).toBe(415);
        expect(await res.json()).toEqual({ error: `Content-Type must be ${expected.join(" or ")}` });
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(await rowCounts()).toEqual(before);
  });

  it("the issue's case: no workspace and no role from a sibling; the app's own JSON still creates them", async () => {
    const { POST: createWorkspace } = await import("@/app/api/app/workspaces/route");
    const { POST: createRole } = await import("@/app/api/app/roles/route");
    const form = '{"name":"Evil workspace","slug":"evil","x":"="}';
    const role = JSON.stringify({
      name: "Evil role",
      apiAccess: true,
      canSendPackages: true,
      canViewAllPackages: true,
      canManageWebhooks: true,
      templateAccess: "CREATE",
    });
    const before = await rowCounts();
    expect((await send(createWorkspace, { "sec-fetch-site": "same-site", origin: SIBLING, "content-type": "text/plain" }, form)).status).toBe(403);
    expect((await send(createRole, { "sec-fetch-site": "same-site", origin: SIBLING, "content-type": "text/plain" }, role)).status).toBe(403);
    expect((await send(createWorkspace, { "sec-fetch-site": "same-origin", "content-type": "text/plain" }, form)).status).toBe(415);
    expect((await send(createRole, { "sec-fetch-site": "same-origin", "content-type": "text/plain" }, role)).status).toBe(415);
    expect(await rowCounts()).toEqual(before);

    expect(
      (await send(createWorkspace, { "sec-fetch-site": "same-origin", "content-type": "application/json" }, '{"name":"Own workspace","slug":"own"}')).status,
    ).toBe(201);
    expect((await send(createRole, { origin: APP, "content-type": "application/json" }, role.replace("Evil", "Own"))).status).toBe(201);
  });
});
