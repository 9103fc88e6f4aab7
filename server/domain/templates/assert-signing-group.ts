import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";

export const EMPTY_GROUP_MESSAGE = "This signing group has no members, so nobody in it could sign: add someone to the group first";

/**
 * A role's signing group must be one of the actor's workspace and have at least one member (422 at
 * `signingGroupId` otherwise: a role filled "by one of its members" could not be filled at all). The group row is
 * read FOR SHARE, so removing its last member (FOR UPDATE, refused while a role uses it) waits for this assignment.
 */
export async function assertSigningGroup(db: Db, actor: TActor, input: { signingGroupId: string }): Promise<void> {
  const [group] = await db
    .select({ id: signingGroups.id })
    .from(signingGroups)
    .where(and(eq(signingGroups.id, input.signingGroupId), eq(signingGroups.workspaceId, actor.workspace.id)))
    .for("share");
  if (!group) throw errors.validation({ signingGroupId: ["No signing group with this id in the workspace"] });
  const [members] = await db.select({ n: count() }).from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
  if ((members?.n ?? 0) === 0) throw errors.validation({ signingGroupId: [EMPTY_GROUP_MESSAGE] });
}
