/**
 * Writes to the app's own API (app/api/app/**, and next-auth's POSTs) come from the app's own pages only.
 *
 * SameSite=Lax cookies stop cross-SITE requests, but another origin of the same site — another port of the
 * same host, a sibling subdomain — is same-site: its `text/plain` form or `no-cors` fetch carries the
 * member's cookies. So a write must prove it comes from the app's origin:
 *
 *   - `Sec-Fetch-Site: same-origin` (every current browser sends it to https and loopback origins; the browser
 *     sets it, a page cannot); any other value (`same-site`, `cross-site`, `none`) is refused;
 *   - without that header (an older browser, or plain http to a non-loopback host, where browsers omit it):
 *     `Origin` equal to the configured PUBLIC_URL's origin. A browser always sends Origin on a POST, PUT,
 *     PATCH or DELETE. The request's own Host is not trusted as "our origin": PUBLIC_URL is the one name the
 *     operator declared (next-auth, mail links and upload URLs already depend on it);
 *   - neither header: refused. A browser never sends such a write; other clients use /api/v1 with a key.
 *
 * And the body's declared type must be what the operation reads — `application/json` for a JSON body, the
 * operation's `rawBodyTypes` for raw bytes — never the types a form or a `no-cors` fetch can send
 * (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`) without the browser asking first.
 */
import type { TOperation } from "@/server/domain/operation";
import { env } from "@/server/env";
import { errors } from "@/server/lib/errors";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The configured public URL's origin (scheme, host, port; no path). */
export function appOrigin(): string {
  return new URL(env().publicUrl).origin;
}

/** Whether a write comes from the app's own origin (see above). */
export function isSameOriginWrite(req: Request, origin: string = appOrigin()): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site.trim().toLowerCase() === "same-origin";
  const from = req.headers.get("origin");
  return from !== null && from.trim().toLowerCase() === origin.toLowerCase();
}

/** 403 for a write (any method but GET/HEAD/OPTIONS) that does not come from the app's origin. */
export function refuseForeignWrite(req: Request): void {
  if (READS.has(req.method.toUpperCase())) return;
  if (!isSameOriginWrite(req)) throw errors.forbidden("Cross-origin request refused");
}

/** `application/json; charset=utf-8` → `application/json`; null when absent or empty. */
export function mediaTypeOf(req: Request): string | null {
  const value = req.headers.get("content-type");
  const type = value?.split(";")[0]?.trim().toLowerCase();
  return type ? type : null;
}

/**
 * 415 when the body's declared type is not the one the operation reads: `application/json` for an operation
 * with a JSON `body`, one of `rawBodyTypes` for one that reads raw bytes. Operations without a body ignore it.
 */
export function refuseWrongContentType(req: Request, op: Pick<TOperation, "body" | "rawBodyTypes">): void {
  const expected = op.body ? ["application/json"] : op.rawBodyTypes;
  if (!expected || expected.length === 0) return;
  const type = mediaTypeOf(req);
  if (type === null || !expected.includes(type)) throw errors.unsupportedMediaType(expected);
}
