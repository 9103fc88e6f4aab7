/**
 * The owner hands the organisation to another member (the route first checks the owner's own password:
 * server/auth/own-password.ts). In one transaction: the member becomes the owner, with the built-in Admin role;
 * the former owner stays a member with the Admin role, so nothing they made or issued stops working — only
 * what is the owner's alone (API keys, members, security, the server's settings) passes on. The member must have
 * signed in at least once (a password set): an organisation is never handed to an invitation nobody accepted.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { memberships, roles, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";

export const NOT_YET_ACTIVE = "This member has not set a password yet: hand the organisation to a member who has signed in";

export async function transferOwnership(db: Db, actor: TActor, userId: string): Promise<{ ownerUserId: string }> {
  if (userId === actor.user.id) throw errors.conflict("You are already the owner");
  return db.transaction(async (tx) => {
    const orgId = actor.organisation.id;
    const rows = await tx
      .select({ userId: memberships.userId, isOwner: memberships.isOwner, hasPassword: users.passwordHash })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.organisationId, orgId), isNull(users.deletedAt)))
      .for("update", { of: memberships });
    const target = rows.find((r) => r.userId === userId);
    if (!target) throw errors.notFound("Member");
    // The owner who asked may have handed it over already in another tab: only the current owner hands it on.
    if (!rows.some((r) => r.userId === actor.user.id && r.isOwner)) throw errors.forbidden("Only the organisation's owner can do this");
    if (!target.hasPassword) throw errors.conflict(NOT_YET_ACTIVE);
    const [admin] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(and(eq(roles.organisationId, orgId), eq(roles.builtIn, "admin")));
    await tx
      .update(memberships)
      .set({ isOwner: false, roleId: admin!.id })
      .where(and(eq(memberships.organisationId, orgId), eq(memberships.userId, actor.user.id)));
    await tx
      .update(memberships)
      .set({ isOwner: true, roleId: admin!.id })
      .where(and(eq(memberships.organisationId, orgId), eq(memberships.userId, userId)));
    await auditChange(tx, actor, { id: userId, organisationId: orgId, workspaceId: null }, "member.ownership_transferred", { from: actor.user.id });
    return { ownerUserId: userId };
  });
}
