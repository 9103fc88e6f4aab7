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
 */
import { randomUUID } from "node:crypto";
import { publicOperations } from "@/server/http/operations";
import { AppError, errors } from "@/server/lib/errors";
import { errorResponse } from "./errors";
import { compileRouteTable, matchRoute } from "./route-table";
import { rateLimitHeaders, takeRateLimit } from "./steps/rate-limit";

const table = compileRouteTable(publicOperations);

export function isApiPath(pathname: string): boolean {
  return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
}

/** The answer for an unknown /api/v1 path or method; undefined when a route serves it. */
export function unroutedApiResponse(pathname: string, method: string, clientAddress: string | null): Response | undefined {
  const match = matchRoute(table, pathname, method);
  if (match.kind === "ok") return undefined;
  let headers: Record<string, string> = { "X-Request-Id": randomUUID() };
  try {
    headers = { ...headers, ...rateLimitHeaders(takeRateLimit(clientAddress)) };
    if (match.kind === "not_found") throw new AppError("NOT_FOUND", "Not found");
    throw errors.methodNotAllowed(match.allow);
  } catch (err) {
    return errorResponse(err, headers).response;
  }
}
