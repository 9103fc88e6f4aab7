import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, users } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { dropMemberShares } from "@/server/domain/packages/drop-member-shares";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import type { TRemovedMember, TRemoveMember } from "./schemas";

/**
 * Removes a member (owner only; never the owner). The user row stays, marked deleted, so "Issued by" still
 * reads on their keys, and those keys answer 401 from the next request (the spec's "issuing user's account
 * deleted"); their session stops at its next request (the actor is loaded per request) and any pending
 * invite link dies. The packages shared with them stop being shared (dropMemberShares).
 */
export async function removeMember(db: Db, actor: TActor, input: TRemoveMember): Promise<TRemovedMember> {
  const { userId } = input;
  if (userId === actor.user.id) throw errors.forbidden("You cannot remove yourself: the organisation needs its owner");
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    const [membership] = await tx
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.organisationId, orgId)));
    if (!membership) throw errors.notFound("Member");
    if (membership.isOwner) throw errors.forbidden("The owner cannot be removed");
    await tx.delete(memberships).where(eq(memberships.id, membership.id));
    await tx.update(users).set({ deletedAt: now() }).where(eq(users.id, userId));
    await tx.delete(invites).where(eq(invites.userId, userId));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    await dropMemberShares(tx, actor, { userId, email: user?.email ?? "" });
    await auditChange(tx, actor, { id: userId, organisationId: orgId, workspaceId: null }, "member.removed");
    return { userId, removed: true as const };
  });
}
