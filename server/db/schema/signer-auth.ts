/**
 * Signer authentication (issue 21; docs/decisions/signer-authentication.md): how a recipient proves who they are
 * before the signing page shows the package. The method and its state live on `recipient_sessions` (auth_*
 * columns); the email codes sent to a recipient live here, one row per code (only its HMAC), so the hourly
 * limit, the expiry and single use are rows every replica sees.
 */
import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { recipientSessions } from "./packages";

/** NONE: the signing link alone; ACCESS_CODE: a code the sender gives out of band; EMAIL_CODE: a mailed 6-digit code. */
export const SIGNER_AUTH_METHODS = ["NONE", "ACCESS_CODE", "EMAIL_CODE"] as const;
export type TSignerAuthMethod = (typeof SIGNER_AUTH_METHODS)[number];

/** How an integrator says it authenticated the signer itself before handing them a signing URL (printed on the certificate). */
export type TSignerIdentity = { method: string; assertionId: string | null; authenticatedAt: string | null };

export const recipientAuthCodes = pgTable(
  "recipient_auth_codes",
  {
    id: id(),
    sessionId: text("session_id")
      .notNull()
      .references(() => recipientSessions.id, { onDelete: "cascade" }),
    /** HMAC-SHA256 of the code (key derived from ENCRYPTION_KEY): the code itself is only in the mail. */
    codeHash: text("code_hash").notNull(),
    /** The address it was mailed to. */
    sentTo: text("sent_to").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("recipient_auth_codes_session_idx").on(t.sessionId, t.createdAt)],
);

export type TRecipientAuthCodeRow = typeof recipientAuthCodes.$inferSelect;
