import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, roles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import type { TChangedMemberRole, TChangeMemberRole } from "./schemas";

/**
 * Gives a member another role of the organisation (owner only). This is the member's own role in the app;
 * keys keep the role they were created with (the spec: a key acts with its role, not its issuer's).
 */
export async function changeMemberRole(db: Db, actor: TActor, input: TChangeMemberRole): Promise<TChangedMemberRole> {
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    const [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.id, input.roleId), eq(roles.organisationId, orgId)));
    if (!role) throw errors.validation({ roleId: ["Choose a role of this organisation"] });
    const [changed] = await tx
      .update(memberships)
      .set({ roleId: role.id })
      .where(and(eq(memberships.userId, input.userId), eq(memberships.organisationId, orgId)))
      .returning({ id: memberships.id });
    if (!changed) throw errors.notFound("Member");
    await auditChange(tx, actor, { id: input.userId, organisationId: orgId, workspaceId: null }, "member.role_changed", {
      roleId: role.id,
    });
    return { userId: input.userId, roleId: role.id };
  });
}
