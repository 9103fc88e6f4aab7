import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { id, ts } from "./columns";

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
