import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { roles, tenantColumns, users } from "./organisations";

/** API keys: only the SHA-256 of the value and a display prefix are stored. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: id(),
    ...tenantColumns({ workspaceOnDelete: "no action" }),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    issuedByUserId: text("issued_by_user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    hash: text("hash").notNull(),
    /** The instant the key stops working (end of the chosen day in the creator's zone). */
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
    lastUsedAt: ts("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.hash), index("api_keys_org_idx").on(t.organisationId)],
);

export type TApiKeyRow = typeof apiKeys.$inferSelect;
