/**
 * Templates and the documents they (and, later, packages) carry, with the reference data templates use:
 * library documents, signing groups and custom field definitions, and the app's edit locks.
 *
 * A document's bytes live in the file store (server/storage) under `storage_key`; the row records what the
 * upload proved (size, SHA-256, page count and page sizes). Originals are never modified: a converted DOCX
 * gets a new stored PDF, and sealing (later) writes new files.
 */
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts, updatedAt } from "./columns";
import { organisations, tenantColumns, users } from "./organisations";

export const TEMPLATE_STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;
export type TTemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const FIELD_TYPES = ["signature", "initials", "date", "text", "checkbox", "name", "email"] as const;
export type TFieldType = (typeof FIELD_TYPES)[number];

export const DOCUMENT_CONTENT_TYPES = ["application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"] as const;
export type TDocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** AWAITING_UPLOAD until the PUT proved the bytes; UPLOADED after. A DOCX stays DOCX until converted. */
export const DOCUMENT_UPLOAD_STATES = ["AWAITING_UPLOAD", "UPLOADED"] as const;
export type TDocumentUploadState = (typeof DOCUMENT_UPLOAD_STATES)[number];

export type TPageSize = { width: number; height: number };
export type TMergeField = { key: string; label: string; defaultValue?: string | null };
export type TSenderQuestion = { key: string; label: string; required: boolean };

export const templates = pgTable(
  "templates",
  {
    id: id(),
    ...tenantColumns(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status").$type<TTemplateStatus>().notNull().default("DRAFT"),
    mergeFields: jsonb("merge_fields").$type<TMergeField[]>().notNull().default(sql`'[]'::jsonb`),
    questions: jsonb("questions").$type<TSenderQuestion[]>().notNull().default(sql`'[]'::jsonb`),
    createdByUserId: text("created_by_user_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("templates_ws_updated_idx").on(t.workspaceId, t.updatedAt, t.id),
    index("templates_org_idx").on(t.organisationId),
  ],
);

/** A template's roles, addressed by `position` (the API's 0-based roleIndex, in signing order). */
export const templateRoles = pgTable(
  "template_roles",
  {
    id: id(),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    name: text("name").notNull(),
    signingGroupId: text("signing_group_id").references(() => signingGroups.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("template_roles_position_uq").on(t.templateId, t.position)],
);

/**
 * A stored document of a template or of a package (exactly one owner). `storageKey` is set once the bytes are
 * in the file store; a converted DOCX keeps its original under `sourceStorageKey`.
 */
export const documents = pgTable(
  "documents",
  {
    id: id(),
    ...tenantColumns(),
    templateId: text("template_id").references(() => templates.id, { onDelete: "cascade" }),
    packageId: text("package_id"),
    position: integer("position").notNull().default(0),
    name: text("name").notNull(),
    contentType: text("content_type").$type<TDocumentContentType>().notNull(),
    /** Declared at add time; the upload must match it. */
    fileSize: integer("file_size").notNull(),
    uploadState: text("upload_state").$type<TDocumentUploadState>().notNull().default("AWAITING_UPLOAD"),
    storageKey: text("storage_key"),
    sha256: text("sha256"),
    pageCount: integer("page_count"),
    pageSizes: jsonb("page_sizes").$type<TPageSize[]>(),
    /** The DOCX this PDF was converted from, kept unchanged. */
    sourceStorageKey: text("source_storage_key"),
    sourceSha256: text("source_sha256"),
    libraryDocumentId: text("library_document_id"),
    uploadedAt: ts("uploaded_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("documents_template_idx").on(t.templateId, t.position),
    index("documents_package_idx").on(t.packageId, t.position),
    // "Does any row name this stored file?": releasing a file, and the stored-file sweep (server/domain/file-sweep/).
    index("documents_storage_key_idx").on(t.storageKey).where(sql`${t.storageKey} is not null`),
    index("documents_source_storage_key_idx").on(t.sourceStorageKey).where(sql`${t.sourceStorageKey} is not null`),
    check("documents_one_owner", sql`(${t.templateId} is null) <> (${t.packageId} is null)`),
  ],
);

/** Single-use upload URLs: only the SHA-256 of the token is stored. */
export const uploadTokens = pgTable(
  "upload_tokens",
  {
    id: id(),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("upload_tokens_hash_uq").on(t.tokenHash), index("upload_tokens_document_idx").on(t.documentId)],
);

/**
 * Where a field sits and what it asks, shared by a template's fields and the package fields copied from them:
 * the type, the 1-based page, the box in points from the page's top-left corner as displayed (rotation
 * applied), whether it is required, its label and the merge field it is filled from.
 */
export const fieldPlacementColumns = () => ({
  type: text("type").$type<TFieldType>().notNull(),
  page: integer("page").notNull(),
  x: real("x").notNull(),
  y: real("y").notNull(),
  width: real("width").notNull(),
  height: real("height").notNull(),
  required: boolean("required").notNull().default(true),
  label: text("label"),
  mergeFieldKey: text("merge_field_key"),
});

export const templateFields = pgTable(
  "template_fields",
  {
    id: id(),
    templateId: text("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    documentId: text("document_id")
      .notNull()
      .references(() => documents.id, { onDelete: "cascade" }),
    roleId: text("role_id")
      .notNull()
      .references(() => templateRoles.id, { onDelete: "cascade" }),
    ...fieldPlacementColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("template_fields_template_idx").on(t.templateId), index("template_fields_document_idx").on(t.documentId)],
);

/** Reusable PDFs of a workspace, addable to templates and packages. */
export const libraryDocuments = pgTable(
  "library_documents",
  {
    id: id(),
    ...tenantColumns(),
    name: text("name").notNull(),
    description: text("description"),
    contentType: text("content_type").$type<TDocumentContentType>().notNull().default("application/pdf"),
    fileSize: integer("file_size").notNull(),
    storageKey: text("storage_key").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    pageSizes: jsonb("page_sizes").$type<TPageSize[]>().notNull(),
    createdByUserId: text("created_by_user_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("library_documents_ws_name_idx").on(t.workspaceId, t.name), index("library_documents_storage_key_idx").on(t.storageKey)],
);

export const signingGroups = pgTable(
  "signing_groups",
  {
    id: id(),
    ...tenantColumns(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("signing_groups_ws_name_uq").on(t.workspaceId, t.name)],
);

export const signingGroupMembers = pgTable(
  "signing_group_members",
  {
    id: id(),
    groupId: text("group_id")
      .notNull()
      .references(() => signingGroups.id, { onDelete: "cascade" }),
    /** Stored lower-cased. */
    email: text("email").notNull(),
    name: text("name"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("signing_group_members_uq").on(t.groupId, t.email)],
);

/** Keys accepted in a package's `metadata`; only active ones are listed and accepted. */
export const customFieldDefinitions = pgTable(
  "custom_field_definitions",
  {
    id: id(),
    ...tenantColumns(),
    key: text("key").notNull(),
    label: text("label").notNull(),
    active: boolean("active").notNull().default(true),
    /** Null: every template; otherwise only packages from this template. */
    templateId: text("template_id").references(() => templates.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("custom_field_definitions_ws_key_uq").on(t.workspaceId, t.key)],
);

/**
 * The app's edit locks on a template or package: held by one member while their editor is open, renewed by
 * the editor, gone when released or expired. While another member holds it, the API refuses changes (409).
 */
export const editLocks = pgTable(
  "edit_locks",
  {
    id: id(),
    organisationId: text("organisation_id")
      .notNull()
      .references(() => organisations.id, { onDelete: "cascade" }),
    resourceType: text("resource_type").$type<"template" | "package">().notNull(),
    resourceId: text("resource_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("edit_locks_resource_uq").on(t.resourceType, t.resourceId)],
);
