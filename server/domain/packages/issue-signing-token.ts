import { randomBytes } from "node:crypto";
import { sha256Hex } from "@/server/lib/crypto";

/**
 * A fresh signing-link token: 32 random bytes. Only its SHA-256 is stored (recipient_sessions.token_hash); the
 * raw token goes into the link once and is never stored or logged, so a database leak opens no session.
 */
export function issueSigningToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: sha256Hex(token) };
}
