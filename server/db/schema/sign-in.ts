import { foreignKey, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { id, ts } from "./columns";
import { memberships } from "./organisations";

/**
 * The sign-in throttle's counts (server/auth/sign-in-throttle.ts), in the database so every replica shares
 * them and a restart keeps them: one row per failed sign-in (an attempt in progress holds one too, so that
 * concurrent guesses are counted), kept for the throttle's window and then pruned.
 */
export const signInFailures = pgTable(
  "sign_in_failures",
  {
    id: id(),
    /** Trimmed and lower-cased, as the sign-in form's email is looked up. */
    email: text("email").notNull(),
    /** The client address our server recorded from the socket; null when it could not be determined. */
    clientAddress: text("client_address"),
    failedAt: ts("failed_at").notNull(),
  },
  (t) => [
    index("sign_in_failures_email_idx").on(t.email, t.failedAt),
    index("sign_in_failures_address_idx").on(t.clientAddress, t.failedAt),
    index("sign_in_failures_failed_at_idx").on(t.failedAt),
  ],
);

/**
 * Where each email last signed in successfully: from such an address the per-email limit does not apply, so
 * failures spread over many other addresses cannot lock the owner out of their own. Pruned after 30 days.
 */
export const signInKnownAddresses = pgTable(
  "sign_in_known_addresses",
  {
    id: id(),
    email: text("email").notNull(),
    clientAddress: text("client_address").notNull(),
    signedInAt: ts("signed_in_at").notNull(),
  },
  (t) => [uniqueIndex("sign_in_known_addresses_uq").on(t.email, t.clientAddress), index("sign_in_known_addresses_signed_in_at_idx").on(t.signedInAt)],
);

export type TSignInFailureRow = typeof signInFailures.$inferSelect;
export type TSignInKnownAddressRow = typeof signInKnownAddresses.$inferSelect;

/**
 * A member's signed-in sessions (server/domain/member-sessions/): one row per sign-in to the app, its id carried in
 * the session's JWT. A session whose row is gone is over at its next request — signing out, "Sign out" on the
 * Account page, a new password (every row of the user) and a removed membership (the foreign key) all delete
 * rows. `lastSeenAt` is moved at most once a minute; a session idle for `MEMBER_SESSION_IDLE_MS` (the JWT's
 * lifetime) is over too, and pruned.
 */
export const memberSessions = pgTable(
  "member_sessions",
  {
    id: id(),
    userId: text("user_id").notNull(),
    organisationId: text("organisation_id").notNull(),
    /** The client address our server recorded from the socket at sign-in; null when it could not be determined. */
    clientAddress: text("client_address"),
    /** The browser's User-Agent at sign-in, at most 512 characters; described on the Account page. */
    userAgent: text("user_agent"),
    signedInAt: ts("signed_in_at").notNull(),
    lastSeenAt: ts("last_seen_at").notNull(),
  },
  (t) => [
    // A removed member's sessions go with the membership (and an organisation's or user's with theirs).
    foreignKey({
      columns: [t.organisationId, t.userId],
      foreignColumns: [memberships.organisationId, memberships.userId],
      name: "member_sessions_membership_fk",
    }).onDelete("cascade"),
    index("member_sessions_membership_idx").on(t.organisationId, t.userId),
    index("member_sessions_user_idx").on(t.userId),
    index("member_sessions_last_seen_at_idx").on(t.lastSeenAt),
  ],
);

export type TMemberSessionRow = typeof memberSessions.$inferSelect;
