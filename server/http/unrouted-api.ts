/**
 * Unknown /api/v1 paths answer a JSON 404, and known paths asked with a method they do not serve a JSON 405
 * with `Allow`, in the spec's error shape — not Next's HTML page or empty body. They count against the same
 * per-address rate limit as every other /api/v1 request (the limit covers "all /api/v1 routes together") and
 * carry the same X-RateLimit-* and X-Request-Id headers. Known routes are not counted here: their wrapper
 * counts them, so nothing is counted twice.
 *
 * Our HTTP server (server/http-server.ts) asks this before handing a request to Next. It was a Next proxy
 * (middleware) until the packages-list benchmark showed that running one costs 0.4–0.7 ms of CPU on EVERY
 * /api/v1 request (Next's proxy machinery, not this code), a third of a list request's CPU; here, a known
 * route costs one match against the route table. Under `next dev` (no server of ours) unknown paths get
 * Next's own 404.
 *
 * The upload URL (`PUT /uploads/{token}`, no operation) gets the same: another method is a JSON 405 with `Allow:
 * PUT`, another path under /uploads a JSON 404 (`unroutedUploadResponse`).
 *
 * A path with a segment that is not percent-encoded UTF-8 (`/api/v1/packages/%ff`, `/uploads/%`) is refused
 * here too, with a JSON 400, for every JSON path (/api/…, /uploads/…): Next's router decodes each segment
 * it matches against a dynamic route, and a failure there answered a plain-text 500 (see `pathDecodes`).
 */
import { randomUUID } from "node:crypto";
import { publicOperations } from "@/server/http/operations";
import { errors } from "@/server/lib/errors";
import { errorResponse } from "./errors";
import { compileRouteTable, matchRoute } from "./route-table";
import { rateLimitHeaders, takeRateLimit } from "./steps/rate-limit";

const table = compileRouteTable(publicOperations);

export function isApiPath(pathname: string): boolean {
  return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
}

/** Paths answered in JSON, never with a page: the APIs (/api/v1, /api/app, /api/auth, health…) and upload URLs. */
export function isJsonPath(pathname: string): boolean {
  return /^\/(api|uploads)(\/|$)/.test(pathname);
}

export const MALFORMED_PATH_MESSAGE = "Malformed path: a segment is not valid percent-encoded UTF-8";

/**
 * Whether every segment of a raw (still percent-encoded) path decodes with decodeURIComponent. Next's router
 * decodes each segment it matches against a dynamic route (`/sign/[token]`, `/api/v1/packages/[packageId]`) and,
 * when that throws (`%ff`, a lone `%`, a truncated or overlong UTF-8 sequence, an encoded surrogate), it tries
 * to render a pages-router `/400` error page that an App-Router-only build does not have: the failure to
 * render it is deliberately not logged (a "missing required error components" WrappedBuildError in
 * next/dist/server/base-server.js `renderErrorToResponseImpl`) and the answer is a plain-text 500 "Internal
 * Server Error". So such a path never reaches Next. A segment that decodes can only hold well-formed Unicode.
 */
export function pathDecodes(pathname: string): boolean {
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * The JSON 400 for a JSON path that does not decode (`pathDecodes`). An /api/v1 path counts against the
 * per-address rate limit like every other /api/v1 request, and carries its headers.
 */
export function malformedPathResponse(pathname: string, clientAddress: string | null): Response {
  let headers: Record<string, string> = { "X-Request-Id": randomUUID() };
  try {
    if (isApiPath(pathname)) headers = { ...headers, ...rateLimitHeaders(takeRateLimit(clientAddress)) };
    throw errors.badRequest(MALFORMED_PATH_MESSAGE);
  } catch (err) {
    return errorResponse(err, headers).response;
  }
}

export function isUploadPath(pathname: string): boolean {
  return pathname === "/uploads" || pathname.startsWith("/uploads/");
}

/** The upload URL's one route (server/http/upload-route.ts; no operation, declared by openapi-upload.ts). */
const uploadTable = compileRouteTable([{ path: "/uploads/{token}", method: "PUT" }]);

/**
 * The answer for an upload URL asked with another method than PUT (405 with `Allow: PUT`; Next's was an empty
 * 405 without Allow), or a path under /uploads that is no upload URL (404), in the API's error shape; undefined
 * when the upload route serves it. Not rate-limited, like the upload PUT itself.
 */
export function unroutedUploadResponse(pathname: string, method: string): Response | undefined {
  const match = matchRoute(uploadTable, pathname, method);
  if (match.kind === "ok") return undefined;
  const headers = { "X-Request-Id": randomUUID() };
  const err = match.kind === "not_found" ? errors.routeNotFound() : errors.methodNotAllowed(match.allow);
  return errorResponse(err, headers).response;
}

/** The answer for an unknown /api/v1 path or method; undefined when a route serves it. */
export function unroutedApiResponse(pathname: string, method: string, clientAddress: string | null): Response | undefined {
  const match = matchRoute(table, pathname, method);
  if (match.kind === "ok") return undefined;
  let headers: Record<string, string> = { "X-Request-Id": randomUUID() };
  try {
    headers = { ...headers, ...rateLimitHeaders(takeRateLimit(clientAddress)) };
    if (match.kind === "not_found") throw errors.routeNotFound();
    throw errors.methodNotAllowed(match.allow);
  } catch (err) {
    return errorResponse(err, headers).response;
  }
}
