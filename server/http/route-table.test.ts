/**
 * Protects the JSON 404/405 of unknown /api/v1 paths and methods (server/http/unrouted-api.ts uses this table), and the
 * promise that every route file under app/api/v1 is a documented operation and vice versa.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TRouteHandler } from "./api-route";
import { buildOpenApiDocument } from "./openapi";
import { allOperations, publicOperations } from "./operations";
import { compileRouteTable, matchRoute } from "./route-table";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

/** app/api/v1/webhooks/[endpointId]/route.ts → /api/v1/webhooks/{endpointId} */
function filePathToApiPath(file: string): string {
  const rel = path.relative(path.resolve("app"), path.dirname(file)).split(path.sep);
  return "/" + rel.map((seg) => seg.replace(/^\[(.+)\]$/, "{$1}")).join("/");
}

describe("route table", () => {
  const table = compileRouteTable([
    { path: "/api/v1/webhooks", method: "GET" },
    { path: "/api/v1/webhooks", method: "POST" },
    { path: "/api/v1/webhooks/{endpointId}", method: "DELETE" },
  ]);

  it("finds known paths and methods", () => {
    expect(matchRoute(table, "/api/v1/webhooks", "POST")).toEqual({ kind: "ok" });
    expect(matchRoute(table, "/api/v1/webhooks/whe_123", "DELETE")).toEqual({ kind: "ok" });
    expect(matchRoute(table, "/api/v1/webhooks", "HEAD")).toEqual({ kind: "ok" });
  });

  it("says 404 for unknown paths and 405 with Allow for unknown methods", () => {
    expect(matchRoute(table, "/api/v1/nope", "GET")).toEqual({ kind: "not_found" });
    expect(matchRoute(table, "/api/v1/webhooks/a/b", "GET")).toEqual({ kind: "not_found" });
    expect(matchRoute(table, "/api/v1/webhooks", "DELETE")).toEqual({ kind: "method_not_allowed", allow: ["GET", "POST"] });
  });
});

describe("every route is an operation, every operation has a route", () => {
  async function routesUnder(dir: string): Promise<{ key: string; operation: TRouteHandler["operation"] | undefined }[]> {
    const found: { key: string; operation: TRouteHandler["operation"] | undefined }[] = [];
    for (const file of routeFiles(path.resolve(dir))) {
      const mod = (await import(file)) as Record<string, TRouteHandler | undefined>;
      const apiPath = filePathToApiPath(file);
      for (const method of METHODS) {
        const handler = mod[method];
        if (handler) found.push({ key: `${method} ${apiPath}`, operation: handler.operation });
      }
    }
    return found;
  }

  it("matches app/api/v1 and app/api/app route files to the operation list, and the public ones to the OpenAPI document", async () => {
    const files = [...(await routesUnder("app/api/v1")), ...(await routesUnder("app/api/app"))];
    for (const { key, operation } of files) {
      expect(operation, `${key} is not built from an operation (apiRoute/appRoute)`).toBeDefined();
      expect(`${operation!.method} ${operation!.path}`).toBe(key);
      expect(Boolean(operation!.internal), `${key}: only /api/app operations are internal`).toBe(key.includes(" /api/app/"));
    }
    const declared = allOperations.map((op) => `${op.method} ${op.path}`);
    expect(files.map((f) => f.key).sort()).toEqual([...declared].sort());

    const doc = buildOpenApiDocument();
    const documented = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
      METHODS.filter((m) => (item as Record<string, unknown>)[m.toLowerCase()]).map((m) => `${m} ${p}`),
    );
    // Plus the upload URL's PUT, which is no operation (its token is the credential) but is in the contract.
    expect(documented.sort()).toEqual([...publicOperations.map((op) => `${op.method} ${op.path}`), "PUT /uploads/{token}"].sort());
    expect(documented.some((d) => d.includes("/api/app/"))).toBe(false);
    const ids = allOperations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
