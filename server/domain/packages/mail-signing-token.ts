import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { recipientSessions } from "@/server/db/schema";
import { decryptSecret, sha256Hex } from "@/server/lib/crypto";
import type { TSessionRow } from "./invite-session";
import { issueSigningToken } from "./issue-signing-token";

/**
 * The raw token a message to this recipient links to (a reminder, the completed copy), in the caller's
 * transaction: the session's current link when its encrypted copy is kept (the invitation's link keeps
 * working, so every message carries the same address); otherwise — the current link is a 60-minute signing
 * URL, whose copy is never kept, or an older row without one — a fresh link that does not expire replaces it.
 * Never logged.
 */
export async function mailSigningToken(tx: Db, session: Pick<TSessionRow, "id" | "tokenHash" | "tokenExpiresAt" | "tokenCiphertext">, at: Date): Promise<string> {
  if (session.tokenCiphertext && session.tokenHash && !session.tokenExpiresAt) {
    const token = decryptSecret(session.tokenCiphertext);
    if (sha256Hex(token) === session.tokenHash) return token;
  }
  const { token, tokenHash, tokenCiphertext } = issueSigningToken();
  await tx.update(recipientSessions).set({ tokenHash, tokenCiphertext, tokenExpiresAt: null, updatedAt: at }).where(eq(recipientSessions.id, session.id));
  return token;
}
