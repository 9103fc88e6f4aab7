import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findSigningGroup } from "./find-signing-group";
import type { TAddSigningGroupMemberInput } from "./schemas";
import { toSigningGroupView } from "./signing-group-view";

export const memberExists = (email: string) => `${email} is already a member of this group`;

/** Adds a person to a group (email lower-cased; 409 when already there). Returns the whole group. */
export async function addSigningGroupMember(db: Db, actor: TActor, input: TAddSigningGroupMemberInput) {
  try {
    return await db.transaction(async (tx) => {
      const group = await findSigningGroup(tx, actor, input.groupId, { forUpdate: true });
      const [existing] = await tx
        .select({ id: signingGroupMembers.id })
        .from(signingGroupMembers)
        .where(and(eq(signingGroupMembers.groupId, group.id), eq(signingGroupMembers.email, input.email)));
      if (existing) throw errors.conflict(memberExists(input.email));
      const at = now();
      await tx.insert(signingGroupMembers).values({ id: newId("sgm"), groupId: group.id, email: input.email, name: input.name ?? null, createdAt: at });
      const [updated] = await tx.update(signingGroups).set({ updatedAt: at }).where(eq(signingGroups.id, group.id)).returning();
      await auditChange(tx, actor, group.id, "signing_group.member_added", { email: input.email });
      const members = await tx.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, group.id));
      return toSigningGroupView(updated!, members);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(memberExists(input.email));
    throw err;
  }
}
