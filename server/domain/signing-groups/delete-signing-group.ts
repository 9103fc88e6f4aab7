import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { findSigningGroup } from "./find-signing-group";
import type { TSigningGroupRef } from "./schemas";

/**
 * Deletes a group and its members. Template roles that named it lose the link (the foreign key sets it to
 * null) and fall back to an ordinary role; packages already created keep whom they invited.
 */
export async function deleteSigningGroup(db: Db, actor: TActor, input: TSigningGroupRef) {
  return db.transaction(async (tx) => {
    const group = await findSigningGroup(tx, actor, input.groupId, { forUpdate: true });
    await tx.delete(signingGroups).where(eq(signingGroups.id, group.id));
    await auditChange(tx, actor, group.id, "signing_group.deleted", { name: group.name });
    return { id: group.id, deleted: true as const };
  });
}
