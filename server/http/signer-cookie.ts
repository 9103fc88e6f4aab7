/**
 * The signer cookie on the wire (server/domain/signing/signer-pass.ts makes and checks its value): read from a
 * request for the signing steps, and set by the check's answer — HttpOnly, SameSite=Lax, Secure when the
 * service is served over https, without Max-Age or Expires so it ends with the browser session. On an embedded
 * page (docs/decisions/embedded-signing.md) it is a cross-site cookie like the embed cookie:
 * `SameSite=None; Secure; Partitioned`.
 */
import { env } from "@/server/env";
import { json } from "./errors";
import { RawResponse } from "./route";

/** The request's cookies by name; a malformed value (bad percent-encoding) is left out. */
export function requestCookies(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // not ours, or not well-formed: ignored
    }
  }
  return cookies;
}

/**
 * A cookie for a page inside another site's frame: sent there only with `SameSite=None`, which needs `Secure`
 * (browsers treat http://localhost and 127.0.0.1 as secure, so loopback tests work over http), and
 * `Partitioned` (CHIPS) so it still works where third-party cookies are blocked: it lives in the framing site's
 * partition. No Max-Age: the server ends the embedded session (embed_links.session_expires_at).
 */
export function crossSiteCookie(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; HttpOnly; Secure; SameSite=None; Partitioned`;
}

/** The check's 200 with the signer cookie (cross-site on an embedded page). */
export function signerCookieResponse(cookie: { name: string; value: string }, opts: { embedded?: boolean } = {}): RawResponse {
  const secure = new URL(env().publicUrl).protocol === "https:" ? "; Secure" : "";
  const header = opts.embedded
    ? crossSiteCookie(cookie.name, cookie.value)
    : `${cookie.name}=${encodeURIComponent(cookie.value)}; Path=/; HttpOnly; SameSite=Lax${secure}`;
  return new RawResponse(json({ data: { passed: true } }, 200, { "Set-Cookie": header }));
}
