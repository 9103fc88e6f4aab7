/**
 * Embedded signing (issue 23, item 3; docs/decisions/embedded-signing.md). A workspace lists the origins that may
 * frame its signing pages; an embedded signing URL is a single-use, 5-minute link bound to one recipient session
 * and one of those origins. Opening it consumes the token and binds the rest of the signing to a cookie
 * (only its SHA-256 is stored here) for `EMBED_SESSION_MINUTES`.
 */
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { tenantColumns } from "./organisations";
import { packages, recipientSessions } from "./packages";

export const embedOrigins = pgTable(
  "embed_origins",
  {
    id: id(),
    ...tenantColumns(),
    /** `https://app.example.com`: scheme, host and port, validated by common/embed-origin.ts. */
    origin: text("origin").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("embed_origins_workspace_origin_uq").on(t.workspaceId, t.origin)],
);

export const embedLinks = pgTable(
  "embed_links",
  {
    /** `emb_…`: the embedded page's address (/embed/s/{id}); not a credential (the cookie is). */
    id: id(),
    ...tenantColumns(),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    sessionId: text("session_id")
      .notNull()
      .references(() => recipientSessions.id, { onDelete: "cascade" }),
    /** The origin allowed to frame it (copied: removing it from the list later ends no opened session). */
    origin: text("origin").notNull(),
    /** SHA-256 of the single-use URL's token. */
    tokenHash: text("token_hash").notNull(),
    /** The URL's 5 minutes. */
    expiresAt: ts("expires_at").notNull(),
    /** Set when the URL was opened (its token is then used up). */
    openedAt: ts("opened_at"),
    /** SHA-256 of the embed cookie's value, set at opening. */
    cookieHash: text("cookie_hash"),
    /** When the opened session stops working. */
    sessionExpiresAt: ts("session_expires_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("embed_links_token_uq").on(t.tokenHash), index("embed_links_session_idx").on(t.sessionId)],
);

export type TEmbedLinkRow = typeof embedLinks.$inferSelect;
