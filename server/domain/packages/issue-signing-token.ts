import { encryptSecret, randomToken, sha256Hex } from "@/server/lib/crypto";

/**
 * A fresh signing-link token: 32 random bytes. The session stores its SHA-256 (recipient_sessions.token_hash),
 * which is how a link is looked up, and an AES-256-GCM copy (`token_ciphertext`, ENCRYPTION_KEY) so that a
 * reminder and the completed mail can carry a link the recipient already has (docs/mail.md). A database leak alone opens no session; the raw token is never logged.
 */
export function issueSigningToken(): { token: string; tokenHash: string; tokenCiphertext: string } {
  const token = randomToken();
  return { token, tokenHash: sha256Hex(token), tokenCiphertext: encryptSecret(token) };
}
