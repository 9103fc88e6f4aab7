import { randomUUID } from "node:crypto";
import { AppError, errors } from "@/server/lib/errors";
import { errorResponse } from "@/server/http/errors";
import { publicOperations } from "@/server/http/operations";
import { compileRouteTable, matchRoute } from "@/server/http/route-table";
import { clientAddressOf } from "@/server/http/steps/client-address";
import { rateLimitHeaders, takeRateLimit } from "@/server/http/steps/rate-limit";

const table = compileRouteTable(publicOperations);

/**
 * Unknown /api/v1 paths and methods answer JSON in the spec's error shape, not Next's HTML 404 or empty 405.
 * They count against the same per-address rate limit as every other /api/v1 request (the limit covers "all
 * /api/v1 routes together"), and carry the same X-RateLimit-* and X-Request-Id headers. Known routes pass
 * through untouched: their wrapper counts them, so nothing is counted twice.
 */
export function proxy(request: Request): Response | undefined {
  const { pathname } = new URL(request.url);
  const match = matchRoute(table, pathname, request.method);
  if (match.kind === "ok") return undefined;
  let headers: Record<string, string> = { "X-Request-Id": randomUUID() };
  try {
    headers = { ...headers, ...rateLimitHeaders(takeRateLimit(clientAddressOf(request))) };
    if (match.kind === "not_found") throw new AppError("NOT_FOUND", "Not found");
    throw errors.methodNotAllowed(match.allow);
  } catch (err) {
    return errorResponse(err, headers).response;
  }
}

export const config = { matcher: ["/api/v1", "/api/v1/:path*"] };
