import { pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { tenantColumns } from "./organisations";

/** A workspace's named group of people; a template role may be filled by one of its members. */
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

export type TSigningGroupRow = typeof signingGroups.$inferSelect;
export type TSigningGroupMemberRow = typeof signingGroupMembers.$inferSelect;
