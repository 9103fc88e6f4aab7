import type { Db } from "@/server/db/client";
import { signingGroupMembers, signingGroups } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { assertGroupNameFree, groupNameTaken } from "./assert-group-name-free";
import { auditChange } from "@/server/domain/audit/audit-change";
import type { TCreateSigningGroup } from "./schemas";
import { toSigningGroupView } from "./signing-group-view";

/** Creates a group (name unique in the workspace → 409) with its first members. */
export async function createSigningGroup(db: Db, actor: TActor, input: TCreateSigningGroup) {
  try {
    return await db.transaction(async (tx) => {
      await assertGroupNameFree(tx, actor, input.name);
      const at = now();
      const [group] = await tx
        .insert(signingGroups)
        .values({ id: newId("sgrp"), organisationId: actor.organisation.id, workspaceId: actor.workspace.id, name: input.name, createdAt: at, updatedAt: at })
        .returning();
      const members = input.members.length
        ? await tx
            .insert(signingGroupMembers)
            .values(input.members.map((m) => ({ id: newId("sgm"), groupId: group!.id, email: m.email, name: m.name ?? null, createdAt: at })))
            .returning()
        : [];
      await auditChange(tx, actor, group!.id, "signing_group.created", { name: input.name, members: input.members.map((m) => m.email) });
      return toSigningGroupView(group!, members);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(groupNameTaken(input.name));
    throw err;
  }
}
