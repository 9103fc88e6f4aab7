/**
 * How the generated malformed-request run (../malformed-requests.test.ts) reaches the routes: every route file
 * under app/api keyed by its operation; a handler called as Next calls it (from 127.0.0.1, with the app's
 * Origin on /api/app); and, for our real HTTP server, a stand-in for Next that routes like Next (and fails like
 * it on a segment that does not decode) with a raw request that sends the path exactly as given.
 */
import http from "node:http";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TOperation } from "@/server/domain/operation";
import type { TNextHandler } from "@/server/http-server";
import { allOperations } from "@/server/http/operations";
import type { TRouteHandler } from "@/server/http/route";
import { CLIENT_ADDRESS_HEADER } from "@/server/http/steps/client-address";
import { resetRateLimits } from "@/server/http/steps/rate-limit";
import { uploadRoute } from "@/server/http/upload-route";

export const APP_ORIGIN = "http://localhost:3000";

// ---------------------------------------------------------------------------------------------------------
// The routes: every route file under app/api, keyed by operation.

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return entry === "route.ts" ? [full] : [];
  });
}

export async function loadRoutes(): Promise<Map<string, TRouteHandler>> {
  const byOperation = new Map<string, TRouteHandler>();
  for (const file of [...routeFiles(path.resolve("app/api/v1")), ...routeFiles(path.resolve("app/api/app"))]) {
    const mod = (await import(file)) as Record<string, TRouteHandler | undefined>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const handler = mod[method];
      if (handler?.operation) byOperation.set(handler.operation.operationId, handler);
    }
  }
  return byOperation;
}

/** The media types of an operation's raw (non-JSON) body; empty for JSON. */
export function rawTypesOf(op: TOperation): readonly string[] {
  const declared = (op as { rawBodyTypes?: readonly string[] }).rawBodyTypes;
  if (declared) return declared;
  return (
    { appUploadLibraryDocument: ["application/pdf"], appVerifySealedPdf: ["application/pdf"], appSetSigningFieldImage: ["image/png"] }[op.operationId] ?? []
  );
}

// ---------------------------------------------------------------------------------------------------------
// Sending: a route handler called as Next calls it, from 127.0.0.1, signed in as the owner on /api/app.

export type TSend = {
  params: Record<string, string>;
  query: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  key?: string;
  urlPath?: string;
};
export type TAnswer = { status: number; contentType: string; text: string };

export function urlPathOf(op: TOperation, params: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name] ?? "";
    return value.isWellFormed() ? encodeURIComponent(value) || "_" : "_";
  });
}

export async function send(route: TRouteHandler, req: TSend): Promise<TAnswer> {
  const op = route.operation;
  const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: "127.0.0.1" });
  if (op.path.startsWith("/api/v1/") && req.key) headers.set("authorization", `Bearer ${req.key}`);
  if (op.path.startsWith("/api/app/")) {
    headers.set("origin", APP_ORIGIN);
    headers.set("sec-fetch-site", "same-origin");
  }
  if (req.body !== undefined) headers.set("content-type", rawTypesOf(op)[0] ?? "application/json");
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    if (value === "") headers.delete(name);
    else headers.set(name, value);
  }
  const url = `http://localhost:3000${req.urlPath ?? urlPathOf(op, req.params)}${req.query ? `?${req.query}` : ""}`;
  const body = req.body === undefined || op.method === "GET" ? undefined : typeof req.body === "string" ? req.body : new Uint8Array(req.body);
  resetRateLimits();
  const res = await route(new Request(url, { method: op.method, headers, body }), { params: Promise.resolve(req.params) });
  return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
}

// ---------------------------------------------------------------------------------------------------------
// Through our HTTP server: a stand-in for Next that routes like Next (and fails like it on a bad segment).

export function nextStandIn(routes: Map<string, TRouteHandler>): TNextHandler {
  const table = allOperations.map((op) => ({ op, segments: op.path.split("/") }));
  return async (req, res) => {
    const url = new URL(req.url!, "http://localhost:3000");
    const segments = url.pathname.split("/");
    const found = table.find(
      ({ op, segments: pattern }) =>
        op.method === req.method && pattern.length === segments.length && pattern.every((p, i) => /^\{\w+\}$/.test(p) || p === segments[i]),
    );
    const upload = /^\/uploads\/[^/]+$/.test(url.pathname) && req.method === "PUT";
    if (!found && !upload) {
      res.writeHead(404, { "content-type": "text/html" }).end("<!DOCTYPE html><title>Page not found</title>");
      return;
    }
    const params: Record<string, string> = {};
    try {
      if (upload) params.token = decodeURIComponent(segments[2]!);
      else
        found!.segments.forEach((p, i) => {
          const name = /^\{(\w+)\}$/.exec(p)?.[1];
          if (name) params[name] = decodeURIComponent(segments[i]!);
        });
    } catch {
      // What Next 16 answers when it cannot decode a dynamic segment (see unrouted-api.ts `pathDecodes`).
      res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    const body = chunks.length && req.method !== "GET" ? new Uint8Array(Buffer.concat(chunks)) : undefined;
    const request = new Request(url, { method: req.method, headers, body });
    const handler = upload ? uploadRoute : routes.get(found!.op.operationId)!;
    const response = await handler(request, { params: Promise.resolve(params) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  };
}

export function rawRequest(base: string, method: string, target: string, headers: Record<string, string>): Promise<TAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method, path: target, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode!, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    req.end(method === "GET" || method === "DELETE" ? undefined : "{}");
  });
}
