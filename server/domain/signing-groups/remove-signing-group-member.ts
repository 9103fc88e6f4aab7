import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups, templateRoles, templates } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findSigningGroup } from "./find-signing-group";
import type { TSigningGroupMemberRef } from "./schemas";
import { toSigningGroupView } from "./signing-group-view";

/**
 * Removes a person from a group (404 for a member or group not in the workspace). Returns the whole group.
 * The last member of a group that a template role uses stays (409, naming the roles): the role would otherwise
 * point at a group nobody can fill it from (assigning an empty group is refused too: templates/assert-signing-group.ts).
 * Packages already created keep whom they invited.
 */
export async function removeSigningGroupMember(db: Db, actor: TActor, input: TSigningGroupMemberRef) {
  return db.transaction(async (tx) => {
    const group = await findSigningGroup(tx, actor, input.groupId, { forUpdate: true });
    const [removed] = await tx
      .delete(signingGroupMembers)
      .where(and(eq(signingGroupMembers.id, input.memberId), eq(signingGroupMembers.groupId, group.id)))
      .returning();
    if (!removed) throw errors.notFound("Signing group member");
    const [left] = await tx.select({ n: count() }).from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
    if ((left?.n ?? 0) === 0) {
      const users = await tx
        .select({ role: templateRoles.name, template: templates.name })
        .from(templateRoles)
        .innerJoin(templates, eq(templates.id, templateRoles.templateId))
        .where(eq(templateRoles.signingGroupId, group.id))
        .orderBy(asc(templates.name), asc(templateRoles.position));
      if (users.length > 0) throw errors.conflict(lastMemberInUse(removed.email, group.name, users));
    }
    const [updated] = await tx.update(signingGroups).set({ updatedAt: now() }).where(eq(signingGroups.id, group.id)).returning();
    await auditChange(tx, actor, group.id, "signing_group.member_removed", { email: removed.email });
    const members = await tx.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
    return toSigningGroupView(updated!, members);
  });
}

/** The 409 of removing a group's last member while template roles use the group (at most three named). */
export function lastMemberInUse(email: string, group: string, users: { role: string; template: string }[]): string {
  const named = users.slice(0, 3).map((u) => `“${u.role}” in “${u.template}”`);
  const more = users.length > 3 ? ` and ${users.length - 3} more` : "";
  return `${email} is the last member of “${group}”, which template roles use (${named.join(", ")}${more}): add another member first, or take the group off those roles`;
}
