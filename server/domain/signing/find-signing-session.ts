import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { packages, recipientSessions } from "@/server/db/schema";
import type { TPackageRow } from "@/server/domain/packages/find-package";
import type { TSessionRow } from "@/server/domain/packages/invite-session";
import type { TRecipientActor } from "./recipient-actor";
import { SigningRefusal } from "./signing-refusal";
import { now } from "@/server/lib/clock";
import { sha256Hex } from "@/server/lib/crypto";
import type { TSigningRequest } from "./schemas";
import { needsSignerCheck } from "./signer-pass";
import { embedSessionLive, findEmbedLink, isEmbedHandle } from "@/server/domain/embedding/embed-link";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * The session a signing link opens: looked up by the SHA-256 of the token (only the hash is stored). An unknown
 * token, one replaced by a newer link (revoked), or a signing URL past its `token_expires_at` are all the same
 * NOT_FOUND refusal, so a link never tells which. The package is returned even when deleted: the page says so.
 *
 * A recipient who must authenticate (ACCESS_CODE, EMAIL_CODE) and whose browser has not passed the check is
 * refused AUTHENTICATION_REQUIRED (403) on every step; only the view and the check itself pass
 * `{ beforeSignerCheck: true }` (docs/decisions/signer-authentication.md).
 *
 * An embedded page's handle (`emb_…`, docs/decisions/embedded-signing.md) stands in for a token: it opens its
 * link's session only with that link's embed cookie, within the embedded session's time; else NOT_FOUND.
 */
export async function findSigningSession(
  db: Db,
  request: TSigningRequest,
  options: { beforeSignerCheck?: boolean } = {},
): Promise<{ pkg: TPackageRow; session: TSessionRow; recipient: TRecipientActor }> {
  if (!TOKEN_PATTERN.test(request.token)) throw new SigningRefusal("NOT_FOUND");
  const embedded = isEmbedHandle(request.token);
  let sessionId: string | null = null;
  if (embedded) {
    const link = await findEmbedLink(db, request.token);
    if (!link || !embedSessionLive(link, request.cookies)) throw new SigningRefusal("NOT_FOUND");
    sessionId = link.sessionId;
  }
  const [row] = await db
    .select({ session: recipientSessions, pkg: packages })
    .from(recipientSessions)
    .innerJoin(packages, eq(packages.id, recipientSessions.packageId))
    .where(sessionId ? eq(recipientSessions.id, sessionId) : eq(recipientSessions.tokenHash, sha256Hex(request.token)));
  if (!row) throw new SigningRefusal("NOT_FOUND");
  if (!embedded && row.session.tokenExpiresAt && row.session.tokenExpiresAt.getTime() <= now().getTime()) throw new SigningRefusal("NOT_FOUND");
  if (!options.beforeSignerCheck && needsSignerCheck(request, row.session)) throw new SigningRefusal("AUTHENTICATION_REQUIRED");
  const recipient: TRecipientActor = {
    kind: "recipient",
    sessionId: row.session.id,
    clientAddress: request.clientAddress,
    userAgent: request.userAgent?.slice(0, 500) ?? null,
  };
  return { pkg: row.pkg, session: row.session, recipient };
}
