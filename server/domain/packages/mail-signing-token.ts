import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { decryptSecret, sha256Hex } from "@/server/lib/crypto";
import type { TSessionRow } from "./invite-session";
import { issueSigningToken } from "./issue-signing-token";

type TTokenSession = Pick<TSessionRow, "id" | "tokenHash" | "tokenExpiresAt" | "tokenCiphertext">;

/** The session's current raw token, from its encrypted copy, or null (no copy, or one that no longer matches). */
function currentToken(session: TTokenSession): string | null {
  if (!session.tokenCiphertext || !session.tokenHash) return null;
  const token = decryptSecret(session.tokenCiphertext);
  return sha256Hex(token) === session.tokenHash ? token : null;
}

/**
 * The raw token a message to this recipient links to, in the caller's transaction (docs/mail.md). Never logged.
 * - `reminder`: the session's current lasting link (the invitation's), so every message carries the same
 *   address; when the current link is a 60-minute signing URL, a fresh lasting link replaces it (one token per
 *   session, as the signing-URL operation says).
 * - `completed`: the current link whatever it is, so the page the recipient signed on keeps working; a signing
 *   URL's hour is lifted, since after completion a link opens only the end page and this recipient's signed
 *   copy. A link already expired (or with no kept copy) is replaced by a fresh lasting one.
 */
export async function mailSigningToken(tx: Db, session: TTokenSession, at: Date, purpose: "reminder" | "completed"): Promise<string> {
  const token = currentToken(session);
  const expires = session.tokenExpiresAt;
  if (token && !expires) return token;
  if (token && purpose === "completed" && expires && expires.getTime() > at.getTime()) {
    await tx.update(recipientSessions).set({ tokenExpiresAt: null, updatedAt: at }).where(eq(recipientSessions.id, session.id));
    return token;
  }
  const fresh = issueSigningToken();
  await tx
    .update(recipientSessions)
    .set({ tokenHash: fresh.tokenHash, tokenCiphertext: fresh.tokenCiphertext, tokenExpiresAt: null, updatedAt: at })
    .where(eq(recipientSessions.id, session.id));
  return fresh.token;
}
