/**
 * An embedded signing URL and the session it opens (docs/decisions/embedded-signing.md). The URL
 * (`/embed/sign/{token}`) is single use and valid 5 minutes; opening it consumes the token and moves the signer
 * to `/embed/s/{linkId}`, where the link's id stands in for a token in every signing path and the embed cookie
 * (only its SHA-256 is stored) is the credential, for `EMBED_SESSION_MINUTES`.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { embedLinks, embedOrigins, type TEmbedLinkRow } from "@/server/db/schema";
import { auditChange } from "@/server/domain/audit/audit-change";
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { hexEqual, randomToken, sha256Hex } from "@/server/lib/crypto";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";

export const EMBED_URL_MINUTES = 5;
export const EMBED_SESSION_MINUTES = 60;

/** The embedded page's handle in a path: an `emb_` id (a signing token is 43 base64url characters, never this). */
const EMBED_HANDLE = /^emb_[0-9a-f]{44}$/;

export function isEmbedHandle(value: string): boolean {
  return EMBED_HANDLE.test(value);
}

export function embedCookieName(linkId: string): string {
  return `foliosign_embed_${linkId}`;
}

type TTenantRef = { id: string; organisationId: string; workspaceId: string };

/**
 * Issues an embedded signing URL for a session whose turn it is (the caller checked the turn, under the package
 * lock). `origin` must be on the workspace's list, else 422 at `embed.origin`. The session's own signing link is
 * left alone.
 */
export async function issueEmbedLink(tx: Db, pkg: TTenantRef, sessionId: string, origin: string): Promise<{ url: string; expiresAt: string }> {
  const [listed] = await tx
    .select({ id: embedOrigins.id })
    .from(embedOrigins)
    .where(and(eq(embedOrigins.workspaceId, pkg.workspaceId), eq(embedOrigins.origin, origin)));
  if (!listed) throw errors.validation({ "embed.origin": ["Not one of this workspace's embed origins (PUT /settings/embed-origins)"] });
  const token = randomToken();
  const expiresAt = new Date(now().getTime() + EMBED_URL_MINUTES * 60_000);
  await tx.insert(embedLinks).values({
    id: newId("emb"),
    organisationId: pkg.organisationId,
    workspaceId: pkg.workspaceId,
    packageId: pkg.id,
    sessionId,
    origin,
    tokenHash: sha256Hex(token),
    expiresAt,
  });
  return { url: `${env().publicUrl}/embed/sign/${token}`, expiresAt: expiresAt.toISOString() };
}

export type TOpenedEmbed =
  | { kind: "opened"; linkId: string; origin: string; cookie: { name: string; value: string } }
  /** Known but already opened or past its 5 minutes: the page says so to its origin. */
  | { kind: "spent"; linkId: string; origin: string }
  | { kind: "unknown" };

/**
 * Opens an embedded signing URL: one conditional update consumes the token (two concurrent opens: one wins),
 * sets the cookie's hash and the session's end, and records `recipient.embed_opened` on the package's chain.
 */
export async function openEmbedLink(db: Db, request: { token: string; clientAddress: string | null; userAgent: string | null }): Promise<TOpenedEmbed> {
  if (!/^[A-Za-z0-9_-]{20,128}$/.test(request.token)) return { kind: "unknown" };
  const tokenHash = sha256Hex(request.token);
  const cookieValue = randomToken();
  const at = now();
  return db.transaction(async (tx) => {
    const [opened] = await tx
      .update(embedLinks)
      .set({ openedAt: at, cookieHash: sha256Hex(cookieValue), sessionExpiresAt: new Date(at.getTime() + EMBED_SESSION_MINUTES * 60_000) })
      .where(and(eq(embedLinks.tokenHash, tokenHash), isNull(embedLinks.openedAt), gt(embedLinks.expiresAt, at)))
      .returning();
    if (!opened) {
      const [known] = await tx.select({ id: embedLinks.id, origin: embedLinks.origin }).from(embedLinks).where(eq(embedLinks.tokenHash, tokenHash));
      return known ? { kind: "spent", linkId: known.id, origin: known.origin } : { kind: "unknown" };
    }
    const recipient = {
      kind: "recipient" as const,
      sessionId: opened.sessionId,
      clientAddress: request.clientAddress,
      userAgent: request.userAgent?.slice(0, 500) ?? null,
    };
    await auditChange(
      tx,
      recipient,
      { id: opened.packageId, organisationId: opened.organisationId, workspaceId: opened.workspaceId },
      "recipient.embed_opened",
      {
        sessionId: opened.sessionId,
        origin: opened.origin,
        embedLinkId: opened.id,
      },
    );
    return { kind: "opened", linkId: opened.id, origin: opened.origin, cookie: { name: embedCookieName(opened.id), value: cookieValue } };
  });
}

/** The link behind an embedded page's handle, whatever its state (its origin frames the page); null when unknown. */
export async function findEmbedLink(db: Db, handle: string): Promise<TEmbedLinkRow | null> {
  if (!isEmbedHandle(handle)) return null;
  const [row] = await db.select().from(embedLinks).where(eq(embedLinks.id, handle));
  return row ?? null;
}

/** Whether the request's cookies hold this opened link's embed cookie, within the session's time. */
export function embedSessionLive(link: TEmbedLinkRow, cookies: Record<string, string> | undefined): boolean {
  const value = cookies?.[embedCookieName(link.id)];
  if (!value || !link.cookieHash || !link.sessionExpiresAt) return false;
  if (link.sessionExpiresAt.getTime() <= now().getTime()) return false;
  return hexEqual(sha256Hex(value), link.cookieHash);
}
