/**
 * Which /api/v1 paths and methods exist, from the operation list. Our HTTP server (./unrouted-api.ts) answers unknown
 * paths with a JSON 404 and known paths with an unsupported method with a JSON 405, instead of Next's
 * HTML page or empty body.
 */
import type { TOperation } from "@/server/domain/operation";

export type TRouteMatch = { kind: "ok" } | { kind: "not_found" } | { kind: "method_not_allowed"; allow: string[] };

type TCompiled = { pattern: RegExp; methods: Set<string> };

/** The routes: operations, or the upload URL (`/uploads/{token}`, PUT), which is no operation. */
export function compileRouteTable(ops: readonly (Pick<TOperation, "method"> & { path: string })[]): TCompiled[] {
  const byPath = new Map<string, Set<string>>();
  for (const op of ops) {
    const set = byPath.get(op.path) ?? new Set<string>();
    set.add(op.method);
    byPath.set(op.path, set);
  }
  return [...byPath].map(([path, methods]) => {
    const source = path
      .split("/")
      .map((seg) => (/^\{[^}]+\}$/.test(seg) ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    return { pattern: new RegExp(`^${source}/?$`), methods };
  });
}

export function matchRoute(table: readonly TCompiled[], pathname: string, method: string): TRouteMatch {
  const allow = new Set<string>();
  for (const entry of table) if (entry.pattern.test(pathname)) for (const m of entry.methods) allow.add(m);
  if (allow.size === 0) return { kind: "not_found" };
  // Next answers HEAD for GET routes and OPTIONS itself.
  if (allow.has(method) || method === "OPTIONS" || (method === "HEAD" && allow.has("GET"))) return { kind: "ok" };
  return { kind: "method_not_allowed", allow: [...allow].sort() };
}
