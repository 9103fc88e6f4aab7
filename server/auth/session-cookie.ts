/**
 * Who a request's session cookie says signed in: next-auth's JWT, decrypted and checked (signature, expiry), read
 * from the cookie only — never from an Authorization header, which next-auth's `getToken` would also accept.
 * No callback and no database read here: the caller loads the actor once, with every check
 * (server/domain/access/load-session-actor.ts), instead of next-auth's session callbacks loading it a second time.
 */
import { getToken } from "next-auth/jwt";
import type { TSessionIdentity } from "@/server/domain/access/load-session-actor";

/**
 * The identity in the session cookie among `cookies` (name → value, chunked cookies included), or null when there
 * is none, it cannot be read (another secret, tampered, expired) or it names nobody. A session from before
 * credentials versions counts as version 0 (a password never changed); one from before sessions had rows has
 * no id, and the empty id matches no row: it is over. Without a secret, next-auth's own default is used
 * (`NEXTAUTH_SECRET`, which server/boot.ts sets when it is not configured).
 */
export async function identityFromSessionCookies(cookies: Record<string, string>, secret: string | undefined): Promise<TSessionIdentity | null> {
  const token = await getToken({ req: { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"], secret });
  if (!token?.userId || !token.organisationId) return null;
  return { userId: token.userId, organisationId: token.organisationId, credentialsVersion: token.credentialsVersion ?? 0, sessionId: token.sessionId ?? "" };
}
