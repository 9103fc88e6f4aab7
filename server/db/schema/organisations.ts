import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";

export const TEMPLATE_ACCESS = ["USE", "CREATE"] as const;
export type TTemplateAccess = (typeof TEMPLATE_ACCESS)[number];

/** A tenant. Plan features and the allowance are set by the operator (`npm run admin -- set-plan`). */
export const organisations = pgTable("organisations", {
  id: id(),
  name: text("name").notNull(),
  featurePublicApi: boolean("feature_public_api").notNull().default(true),
  featureWebhooks: boolean("feature_webhooks").notNull().default(true),
  featureCustomFields: boolean("feature_custom_fields").notNull().default(true),
  /** Packages that may be sent; null means unlimited. */
  packageAllowance: integer("package_allowance"),
  packagesUsed: integer("packages_used").notNull().default(0),
  /** Plan limits; null means unlimited. */
  maxTemplates: integer("max_templates"),
  maxRecipientsPerPackage: integer("max_recipients_per_package"),
  /** IPv4/IPv6 addresses and CIDR ranges; empty means no allowlist. */
  ipAllowlist: jsonb("ip_allowlist")
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  "users",
  {
    id: id(),
    /** Stored lower-cased. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** scrypt hash; null until an invited member sets a password. */
    passwordHash: text("password_hash"),
    /** Set when a member is removed: the row stays so "Issued by" still reads, but keys stop working. */
    deletedAt: ts("deleted_at"),
    /**
     * Raised whenever the password changes (changed, reset, set through a link): a session carries the value it
     * signed in with, and one that carries an older value is signed out (server/auth/options.ts).
     */
    credentialsVersion: integer("credentials_version").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_uq").on(t.email)],
);

export const roles = pgTable(
  "roles",
  {
    id: id(),
    organisationId: text("organisation_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "admin", "sender" or "viewer" for the built-in roles (not editable); null for custom roles. */
    builtIn: text("built_in"),
    apiAccess: boolean("api_access").notNull().default(false),
    canSendPackages: boolean("can_send_packages").notNull().default(false),
    canViewAllPackages: boolean("can_view_all_packages").notNull().default(false),
    canManageWebhooks: boolean("can_manage_webhooks").notNull().default(false),
    templateAccess: text("template_access").$type<TTemplateAccess>().notNull().default("USE"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Case-insensitive: "Sales" and "sales" would confuse everyone (migration 0038 renamed older such pairs).
  (t) => [uniqueIndex("roles_org_lower_name_uq").on(t.organisationId, sql`lower(${t.name})`)],
);

export const memberships = pgTable(
  "memberships",
  {
    id: id(),
    organisationId: text("organisation_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roleId: text("role_id")
      .notNull()
      .references(() => roles.id),
    isOwner: boolean("is_owner").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("memberships_org_user_uq").on(t.organisationId, t.userId), index("memberships_user_idx").on(t.userId)],
);

/**
 * One-time links that set a member's password: an invitation (`invite`, 7 days, for a member who has none yet)
 * or a reset the owner issued (`reset`, 24 hours). Only the SHA-256 of the token is stored.
 */
export const invites = pgTable(
  "invites",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    purpose: text("purpose").$type<"invite" | "reset">().notNull().default("invite"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invites_token_uq").on(t.tokenHash)],
);

export const workspaces = pgTable(
  "workspaces",
  {
    id: id(),
    organisationId: text("organisation_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    /**
     * A test workspace (issue 23, docs/decisions/test-mode.md): its keys read `fsk_test_…`, its mail stays in the
     * outbox, it consumes no allowance, its seals carry a TEST mark and the test identity, its webhooks say
     * `"test": true`. Switched only while the workspace has sent nothing.
     */
    isTest: boolean("is_test").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("workspaces_org_slug_uq").on(t.organisationId, t.slug),
    // Names too, regardless of case (migration 0038 renamed older duplicates).
    uniqueIndex("workspaces_org_lower_name_uq").on(t.organisationId, sql`lower(${t.name})`),
    uniqueIndex("workspaces_one_default_uq")
      .on(t.organisationId)
      .where(sql`${t.isDefault}`),
  ],
);

/**
 * The two columns of every tenant row: its organisation and its workspace (a row goes with either). Queries
 * filter by `workspace_id` (docs/architecture.md: tenancy in every query). `workspaceOnDelete: "no action"`:
 * the workspace cannot be deleted while the row exists (API keys).
 */
export const tenantColumns = (opts: { workspaceOnDelete?: "cascade" | "no action" } = {}) => ({
  organisationId: text("organisation_id")
    .notNull()
    .references(() => organisations.id, { onDelete: "cascade" }),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id, { onDelete: opts.workspaceOnDelete ?? "cascade" }),
});

export type TOrganisationRow = typeof organisations.$inferSelect;
export type TUserRow = typeof users.$inferSelect;
export type TRoleRow = typeof roles.$inferSelect;
export type TMembershipRow = typeof memberships.$inferSelect;
export type TInviteRow = typeof invites.$inferSelect;
export type TWorkspaceRow = typeof workspaces.$inferSelect;
