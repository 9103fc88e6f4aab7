/**
 * The signer cookie on the wire (server/domain/signing/signer-pass.ts makes and checks its value): read from a
 * request for the signing steps, and set by the check's answer — HttpOnly, SameSite=Lax, Secure when the
 * service is served over https, without Max-Age or Expires so it ends with the browser session.
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

/** The check's 200 with the signer cookie. */
export function signerCookieResponse(cookie: { name: string; value: string }): RawResponse {
  const secure = new URL(env().publicUrl).protocol === "https:" ? "; Secure" : "";
  return new RawResponse(
    json({ data: { passed: true } }, 200, { "Set-Cookie": `${cookie.name}=${encodeURIComponent(cookie.value)}; Path=/; HttpOnly; SameSite=Lax${secure}` }),
  );
}
