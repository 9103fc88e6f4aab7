/**
 * The template aggregate: a template, its roles (in signing order) and its fields on its documents
 * (documents.ts). The placement columns are shared with the package fields copied from them.
 */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, real, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { documents } from "./documents";
import { tenantColumns, users } from "./organisations";
import { signingGroups } from "./signing-groups";
import type { TSignerAuthMethod } from "./signer-auth";

export const TEMPLATE_STATUSES = ["DRAFT", "ACTIVE", "ARCHIVED"] as const;
export type TTemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const FIELD_TYPES = ["signature", "initials", "date", "text", "checkbox", "name", "email"] as const;
export type TFieldType = (typeof FIELD_TYPES)[number];

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
    mergeFields: jsonb("merge_fields")
      .$type<TMergeField[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    questions: jsonb("questions")
      .$type<TSenderQuestion[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdByUserId: text("created_by_user_id").references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_ws_updated_idx").on(t.workspaceId, t.updatedAt, t.id), index("templates_org_idx").on(t.organisationId)],
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
    /** The signer authentication the role presets for its recipient (signer-auth.ts); no code is ever kept here. */
    authMethod: text("auth_method").$type<TSignerAuthMethod>().notNull().default("NONE"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("template_roles_position_uq").on(t.templateId, t.position)],
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
  (t) => [
    index("template_fields_template_idx").on(t.templateId),
    index("template_fields_document_idx").on(t.documentId),
    // A role's deletion deletes its fields (delete-template-role.ts, and the key's ON DELETE): found here (migration 0032).
    index("template_fields_role_idx").on(t.roleId),
  ],
);

export type TTemplateRow = typeof templates.$inferSelect;
export type TTemplateRoleRow = typeof templateRoles.$inferSelect;
export type TTemplateFieldRow = typeof templateFields.$inferSelect;
