import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { invites, memberships, users } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { assertOwner } from "./assert-owner";

export const ZRemoveMember = z.object({ userId: z.string().min(1) });
export type TRemoveMember = z.input<typeof ZRemoveMember>;

/**
 * Removes a member (owner only; never the owner). The user row stays, marked deleted, so "Issued by" still
 * reads on their keys, and those keys answer 401 from the next request (the spec's "issuing user's account
 * deleted"); their session stops at its next request (the actor is loaded per request) and any pending
 * invite link dies.
 */
export async function removeMember(db: Db, actor: TSessionActor, input: TRemoveMember): Promise<{ userId: string; removed: true }> {
  assertOwner(actor);
  const { userId } = parseOrThrow(ZRemoveMember, input, "input");
  if (userId === actor.userId) throw errors.forbidden("You cannot remove yourself: the organisation needs its owner");
  const orgId = actor.organisationId;
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
    await recordAudit(tx, {
      organisationId: orgId,
      subjectType: "member",
      subjectId: userId,
      action: "member.removed",
      actorUserId: actor.userId,
    });
    return { userId, removed: true as const };
  });
}
