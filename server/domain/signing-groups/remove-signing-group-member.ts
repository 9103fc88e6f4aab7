import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findSigningGroup } from "./find-signing-group";
import type { TSigningGroupMemberRef } from "./schemas";
import { toSigningGroupView } from "./signing-group-view";

/** Removes a person from a group (404 for a member or group not in the workspace). Returns the whole group. */
export async function removeSigningGroupMember(db: Db, actor: TActor, input: TSigningGroupMemberRef) {
  return db.transaction(async (tx) => {
    const group = await findSigningGroup(tx, actor, input.groupId, { forUpdate: true });
    const [removed] = await tx
      .delete(signingGroupMembers)
      .where(and(eq(signingGroupMembers.id, input.memberId), eq(signingGroupMembers.groupId, group.id)))
      .returning();
    if (!removed) throw errors.notFound("Signing group member");
    const [updated] = await tx.update(signingGroups).set({ updatedAt: now() }).where(eq(signingGroups.id, group.id)).returning();
    await auditChange(tx, actor, group.id, "signing_group.member_removed", { email: removed.email });
    const members = await tx.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
    return toSigningGroupView(updated!, members);
  });
}
