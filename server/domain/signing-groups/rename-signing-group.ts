import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { assertGroupNameFree, groupNameTaken } from "./assert-group-name-free";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findSigningGroup } from "./find-signing-group";
import type { TRenameSigningGroupInput } from "./schemas";
import { toSigningGroupView } from "./signing-group-view";

/** Renames a group (404 outside the workspace, 409 when the name is taken). */
export async function renameSigningGroup(db: Db, actor: TActor, input: TRenameSigningGroupInput) {
  try {
    return await db.transaction(async (tx) => {
      const before = await findSigningGroup(tx, actor, input.groupId, { forUpdate: true });
      await assertGroupNameFree(tx, actor, input.name, before.id);
      const [group] = await tx.update(signingGroups).set({ name: input.name, updatedAt: now() }).where(eq(signingGroups.id, before.id)).returning();
      await auditChange(tx, actor, before.id, "signing_group.renamed", { from: before.name, to: input.name });
      const members = await tx.select().from(signingGroupMembers).where(eq(signingGroupMembers.groupId, before.id));
      return toSigningGroupView(group!, members);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(groupNameTaken(input.name));
    throw err;
  }
}
