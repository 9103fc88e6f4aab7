/**
 * The page a browser asked for, as our own HTTP server (server/http-server.ts) saw it: pages rendered on the
 * server do not know their own URL, and one that sends a signed-out visit to the sign-in page names it there, so
 * signing in returns to it (server/auth/session.ts). The server deletes any copy of this header a client sends.
 */
export const PAGE_PATH_HEADER = "x-foliosign-page";

/**
 * The path and query of a GET for a page (origin-form target, not /api/ or Next's own /_next/), without the
 * router's `_rsc` cache key; null for anything else.
 */
export function pagePathOf(method: string, target: string): string | null {
  if ((method !== "GET" && method !== "HEAD") || !target.startsWith("/") || target.startsWith("//")) return null;
  if (/^\/(api|_next)(\/|\?|$)/.test(target)) return null;
  const at = target.indexOf("?");
  if (at === -1) return target;
  const query = new URLSearchParams(target.slice(at + 1));
  query.delete("_rsc");
  const rest = query.toString();
  return rest ? `${target.slice(0, at)}?${rest}` : target.slice(0, at);
}
