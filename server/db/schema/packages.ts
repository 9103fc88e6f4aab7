/**
 * Packages: documents sent to recipients for signing, each recipient with a signing session. A package made
 * from a template carries its own copy of everything it needs (documents by reference to the stored, never
 * modified originals; roles as sessions; fields as package fields), so later template edits never change it.
 * The state is the schedule: a SCHEDULED package whose `send_at` passed is the scheduler's due item, a sent one
 * whose `expires_at` passed is expiry's, a session whose `next_reminder_at` passed is the reminder's.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";
import { apiKeys } from "./api-keys";
import { tenantColumns, users } from "./organisations";
import { signingGroups } from "./signing-groups";
import { fieldPlacementColumns, templates, type TSenderQuestion } from "./templates";
import type { TSignerAuthMethod, TSignerIdentity } from "./signer-auth";

export const PACKAGE_STATUSES = ["DRAFT", "SCHEDULED", "IN_PROGRESS", "COMPLETED", "DECLINED", "ON_HOLD", "VOID"] as const;
export type TPackageStatus = (typeof PACKAGE_STATUSES)[number];

/** PENDING: not invited yet (a sequential package's later recipients, or a draft); the rest name what happened. */
export const SESSION_STATUSES = ["PENDING", "SENT", "OPENED", "COMPLETED", "DECLINED", "CANCELLED"] as const;
export type TSessionStatus = (typeof SESSION_STATUSES)[number];

export type TReminders = { firstAfterDays: number; repeatEveryDays: number; max: number };

export const packages = pgTable(
  "packages",
  {
    id: id(),
    ...tenantColumns(),
    templateId: text("template_id").references(() => templates.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    status: text("status").$type<TPackageStatus>().notNull().default("DRAFT"),
    externalId: text("external_id"),
    /** Custom field values keyed by active custom-field key; only set values. */
    metadata: jsonb("metadata")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The member it belongs to (the key's issuer when a key created it); `transfer` changes it. */
    ownerUserId: text("owner_user_id")
      .notNull()
      .references(() => users.id),
    createdByApiKeyId: text("created_by_api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    sequential: boolean("sequential").notNull().default(true),
    message: text("message"),
    mergeValues: jsonb("merge_values")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    questions: jsonb("questions")
      .$type<TSenderQuestion[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    answers: jsonb("answers")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    reminders: jsonb("reminders").$type<TReminders | null>(),
    sendAt: ts("send_at"),
    /** Why the last scheduled send could not happen (no credit, a document missing…), shown to the sender. */
    scheduleError: text("schedule_error"),
    expiresAt: ts("expires_at"),
    expiredAt: ts("expired_at"),
    sentAt: ts("sent_at"),
    holdStartedAt: ts("hold_started_at"),
    firstViewedAt: ts("first_viewed_at"),
    completedAt: ts("completed_at"),
    declinedAt: ts("declined_at"),
    voidedAt: ts("voided_at"),
    voidReason: text("void_reason"),
    deletedAt: ts("deleted_at"),
    /**
     * Sealing (server/domain/sealing/): set when the last recipient finished; the package stays IN_PROGRESS
     * until the sealed files are stored, then reads COMPLETED in that same transaction. A package IN_PROGRESS
     * with `seal_requested_at` set whose `seal_next_attempt_at` passed IS the sealing job's due item; a claim
     * moves `seal_next_attempt_at` by the lease and writes `seal_claim_token`, which the commit must still match
     * (and which a heartbeat renewing the lease must match). `seal_failed_at`: sealing stopped retrying on its own
     * (SEAL_MAX_ATTEMPTS attempts, or a document that can never be sealed); `seal_next_attempt_at` is then null
     * until someone asks for another attempt.
     */
    sealRequestedAt: ts("seal_requested_at"),
    sealAttempts: integer("seal_attempts").notNull().default(0),
    sealNextAttemptAt: ts("seal_next_attempt_at"),
    sealLastError: text("seal_last_error"),
    sealClaimToken: text("seal_claim_token"),
    sealFailedAt: ts("seal_failed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("packages_due_seal_idx")
      .on(t.sealNextAttemptAt)
      .where(sql`${t.status} = 'IN_PROGRESS' and ${t.sealRequestedAt} is not null`),
    // The list (newest `updatedAt` first) of live packages, all of them or one status: an index walk that stops
    // after the page. Deleted packages are never listed, so they are not in these indexes.
    index("packages_ws_updated_idx")
      .on(t.workspaceId, t.updatedAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    index("packages_ws_status_updated_idx")
      .on(t.workspaceId, t.status, t.updatedAt, t.id)
      .where(sql`${t.deletedAt} is null`),
    // Visibility without canViewAllPackages: the member's own packages, and those a key created.
    index("packages_ws_owner_updated_idx")
      .on(t.workspaceId, t.ownerUserId, t.updatedAt)
      .where(sql`${t.deletedAt} is null`),
    index("packages_created_by_key_idx")
      .on(t.createdByApiKeyId)
      .where(sql`${t.createdByApiKeyId} is not null`),
    // A template's deletion sets its packages' template to null (the foreign key's ON DELETE): found here, not
    // by reading every package (migration 0032; server/db/foreign-key-indexes.test.ts; npm run bench:parent-deletes).
    index("packages_template_idx")
      .on(t.templateId)
      .where(sql`${t.templateId} is not null`),
    // `search` (case-insensitive substring of the title): trigram index, pg_trgm (migration 0009_pg_trgm).
    // A short pending list (64 kB, not 4 MB): the planner prices this index by its pending pages too, and with
    // a long one a search's generic plan (list-packages.ts, the trigram path) read the workspace's whole index
    // instead. Without a pending list at all (`fastupdate` off) every insert would update the index in place:
    // 7× the index's insert cost in bulk, against ~1.8× with 64 kB (migration 0027).
    index("packages_title_trgm_idx")
      .using("gin", t.title.op("gin_trgm_ops"))
      .with({ gin_pending_list_limit: 64 })
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex("packages_ws_external_id_uq")
      .on(t.workspaceId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index("packages_due_send_idx")
      .on(t.sendAt)
      .where(sql`${t.status} = 'SCHEDULED'`),
    index("packages_due_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.status} in ('IN_PROGRESS', 'ON_HOLD') and ${t.expiresAt} is not null`),
  ],
);

/**
 * How many live (not deleted) packages each workspace has, per status and `viewed` (`first_viewed_at` set: the
 * list's VIEWED is IN_PROGRESS and viewed), so the list's exact `totalCount` is a sum of a few rows instead of
 * `count(*)` over the workspace. Kept by triggers on `packages` (migration 0011_package_counts_triggers): every
 * statement that inserts, deletes or moves packages between buckets appends its deltas to
 * `package_count_deltas` in its own transaction — appends only, so concurrent writers never wait on a counter
 * row. The `fold-package-counts` job (server/domain/packages/jobs.ts) folds committed deltas into
 * `package_counts`; a reader sums both in one statement (one snapshot), so the total is exact whether or not a
 * fold ran. No foreign keys: a workspace's deletion cascades to its packages, whose triggers still append.
 *
 * The same rows say WHEN a workspace's list changed, for the counts of searches (search-count-cache.ts): every
 * delta carries its writer's transaction id (`xid`), and an update that moves a package between buckets or
 * renames it appends a delta even when the sums cancel (0); each counter row carries the id of the fold that
 * last wrote it (`folded_xid`). A count taken in snapshot S is still exact while every delta and counter row of
 * the workspace is visible in S.
 */
/** A 64-bit transaction id (PostgreSQL's `xid8`), as text: never compared in JS, only by the database. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

export const packageCounts = pgTable(
  "package_counts",
  {
    workspaceId: text("workspace_id").notNull(),
    status: text("status").$type<TPackageStatus>().notNull(),
    viewed: boolean("viewed").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    foldedXid: xid8("folded_xid")
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.status, t.viewed] })],
);

export const packageCountDeltas = pgTable(
  "package_count_deltas",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: text("workspace_id").notNull(),
    status: text("status").$type<TPackageStatus>().notNull(),
    viewed: boolean("viewed").notNull(),
    delta: bigint("delta", { mode: "number" }).notNull(),
    xid: xid8("xid")
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [index("package_count_deltas_ws_idx").on(t.workspaceId, t.status)],
);

/**
 * Members a package was shared with: they see it without canViewAllPackages (visible-packages.ts). No tenant
 * columns of its own: every read and write goes through the package, whose workspace the query filters by.
 */
export const packageShares = pgTable(
  "package_shares",
  {
    id: id(),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Who shared it (the package page lists it); null for shares made before it was recorded. */
    sharedByUserId: text("shared_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("package_shares_uq").on(t.packageId, t.userId), index("package_shares_user_idx").on(t.userId)],
);

/** A recipient's signing session; `position` is the signing order (0-based). */
export const recipientSessions = pgTable(
  "recipient_sessions",
  {
    id: id(),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    roleIndex: integer("role_index"),
    roleName: text("role_name"),
    email: text("email"),
    name: text("name"),
    signingGroupId: text("signing_group_id").references(() => signingGroups.id, { onDelete: "set null" }),
    status: text("status").$type<TSessionStatus>().notNull().default("PENDING"),
    /** SHA-256 of the current signing-link token (random, revocable: replaced or cleared to revoke). */
    tokenHash: text("token_hash"),
    tokenExpiresAt: ts("token_expires_at"),
    /**
     * The current link's raw token encrypted with ENCRYPTION_KEY (server/lib/crypto), kept only so that a
     * reminder and the completed mail carry the same working link as the invitation (or the signing URL the
     * recipient signed with); cleared once the package ends (docs/mail.md).
     */
    tokenCiphertext: text("token_ciphertext"),
    sentAt: ts("sent_at"),
    openedAt: ts("opened_at"),
    completedAt: ts("completed_at"),
    declinedAt: ts("declined_at"),
    declineReason: text("decline_reason"),
    consentAt: ts("consent_at"),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
    /**
     * The signer's IANA time zone as their browser reported it at consent or finish (checked with Intl), so the
     * certificate prints their times in their zone as well as in UTC; null when never reported.
     */
    timeZone: text("time_zone"),
    remindersSent: integer("reminders_sent").notNull().default(0),
    nextReminderAt: ts("next_reminder_at"),
    /**
     * Signer authentication (signer-auth.ts; docs/decisions/signer-authentication.md): the method; the access
     * code's scrypt hash (never the code); wrong tries counted here under the row's lock (5 lock the session);
     * `auth_generation` is part of the signer cookie's MAC, bumped by a correction of the method or the email
     * so every browser must pass again; `auth_passed_at` the last pass (for the certificate).
     */
    authMethod: text("auth_method").$type<TSignerAuthMethod>().notNull().default("NONE"),
    accessCodeHash: text("access_code_hash"),
    authFailedAttempts: integer("auth_failed_attempts").notNull().default(0),
    authLockedAt: ts("auth_locked_at"),
    authGeneration: integer("auth_generation").notNull().default(0),
    authPassedAt: ts("auth_passed_at"),
    /** How the integrator says it authenticated the signer itself (printed on the certificate); null when none. */
    identity: jsonb("identity").$type<TSignerIdentity>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("recipient_sessions_package_idx").on(t.packageId, t.position),
    uniqueIndex("recipient_sessions_token_uq").on(t.tokenHash),
    index("recipient_sessions_due_reminder_idx")
      .on(t.nextReminderAt)
      .where(sql`${t.nextReminderAt} is not null`),
    // A signing group's deletion sets its sessions' group to null: found here (migration 0032).
    index("recipient_sessions_signing_group_idx")
      .on(t.signingGroupId)
      .where(sql`${t.signingGroupId} is not null`),
  ],
);

/** A field of a package, for one session, with the value the recipient gave (stored, never browser-built). */
export const packageFields = pgTable(
  "package_fields",
  {
    id: id(),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    documentId: text("document_id").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => recipientSessions.id, { onDelete: "cascade" }),
    ...fieldPlacementColumns(),
    /** Text, a date, "true"/"false", or for a signature/initials the typed text; drawn images live in storage. */
    value: text("value"),
    valueStorageKey: text("value_storage_key"),
    valueKind: text("value_kind").$type<"typed" | "drawn" | "uploaded" | "text">(),
    valueSetAt: ts("value_set_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("package_fields_package_idx").on(t.packageId),
    index("package_fields_session_idx").on(t.sessionId),
    // The stored-file sweep (server/domain/file-sweep/) asks "does any row name this key?".
    index("package_fields_value_storage_key_idx")
      .on(t.valueStorageKey)
      .where(sql`${t.valueStorageKey} is not null`),
  ],
);

/** Idempotency-Key on POSTs of /api/v1: the stored answer, replayed for 24 hours to the same key and body. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: id(),
    apiKeyId: text("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: the same key with another request is 422. */
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("idempotency_keys_uq").on(t.apiKeyId, t.key), index("idempotency_keys_expiry_idx").on(t.expiresAt)],
);

export type TPackageRow = typeof packages.$inferSelect;
export type TPackageCountRow = typeof packageCounts.$inferSelect;
export type TPackageCountDeltaRow = typeof packageCountDeltas.$inferSelect;
export type TPackageShareRow = typeof packageShares.$inferSelect;
export type TRecipientSessionRow = typeof recipientSessions.$inferSelect;
export type TPackageFieldRow = typeof packageFields.$inferSelect;
export type TIdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
