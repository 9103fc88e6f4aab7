import { json } from "@/server/http/errors";
import { allOperations } from "@/server/http/operations";
import { compileRouteTable, matchRoute } from "@/server/http/route-table";

const table = compileRouteTable(allOperations);

/** Unknown /api/v1 paths and methods answer JSON in the spec's error shape, not Next's HTML 404 or empty 405. */
export function proxy(request: Request): Response | undefined {
  const { pathname } = new URL(request.url);
  const match = matchRoute(table, pathname, request.method);
  if (match.kind === "not_found") return json({ error: "Not found" }, 404);
  if (match.kind === "method_not_allowed") {
    return json({ error: "Method not allowed" }, 405, { Allow: match.allow.join(", ") });
  }
  return undefined;
}

export const config = { matcher: ["/api/v1", "/api/v1/:path*"] };
