import type { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TSigningGroup } from "./schemas";

type TGroupRow = typeof signingGroups.$inferSelect;
type TMemberRow = typeof signingGroupMembers.$inferSelect;

/** A group with its members (by email), as both doors show it. */
export function toSigningGroupView(group: TGroupRow, members: TMemberRow[]): TSigningGroup {
  return {
    id: group.id,
    name: group.name,
    members: members
      .filter((m) => m.groupId === group.id)
      .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
      .map((m) => ({ id: m.id, email: m.email, name: m.name })),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}
