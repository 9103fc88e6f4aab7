import { boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { tenantColumns } from "./organisations";
import { templates } from "./templates";

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

export type TCustomFieldDefinitionRow = typeof customFieldDefinitions.$inferSelect;
