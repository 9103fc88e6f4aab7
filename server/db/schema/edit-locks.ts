import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";
import { organisations, users } from "./organisations";

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

export type TEditLockRow = typeof editLocks.$inferSelect;
