/**
 * The signer cookie (docs/decisions/signer-authentication.md): proof that this browser passed the signer check
 * of one recipient session. Its value is the session's `auth_generation` and an HMAC (ENCRYPTION_KEY) over the
 * session id and that generation, so it is bound to the session, cannot be forged, and stops matching when the
 * sender corrects the method, the code or the email (which bumps the generation). It carries no code.
 */
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import { hexEqual, macHex } from "@/server/lib/crypto";
import type { TSigningRequest } from "./schemas";

const COOKIE_PREFIX = "foliosign_signer_";

export function signerCookieName(sessionId: string): string {
  return `${COOKIE_PREFIX}${sessionId}`;
}

function passMac(sessionId: string, generation: number): string {
  return macHex("signer-pass", `${sessionId}:${generation}`);
}

export function signerCookieValue(session: Pick<TSessionRow, "id" | "authGeneration">): string {
  return `${session.authGeneration}.${passMac(session.id, session.authGeneration)}`;
}

/** Whether the request's signer cookie proves a pass for this session as it is now. */
function hasSignerPass(request: TSigningRequest, session: Pick<TSessionRow, "id" | "authGeneration">): boolean {
  const value = request.cookies?.[signerCookieName(session.id)];
  if (!value) return false;
  const [generation, mac] = value.split(".");
  if (generation !== String(session.authGeneration) || !mac) return false;
  return hexEqual(mac, passMac(session.id, session.authGeneration));
}

/** The recipient must pass the check before anything about the package beyond its title. */
export function needsSignerCheck(request: TSigningRequest, session: Pick<TSessionRow, "id" | "authGeneration" | "authMethod">): boolean {
  return session.authMethod !== "NONE" && !hasSignerPass(request, session);
}
