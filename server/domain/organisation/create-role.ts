import type { Db } from "@/server/db/client";
import { roles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { assertRoleNameFree, roleNameTaken } from "./role-fields";
import { type TCreateRole, type TRoleRef } from "./schemas";
import { isUniqueViolation } from "./unique-violation";

/** A custom role with the spec's permissions (owner only). Returns its id. */
export async function createRole(db: Db, actor: TActor, input: TCreateRole): Promise<TRoleRef> {
  const orgId = actor.organisation.id;
  try {
    return await db.transaction(async (tx) => {
      await assertRoleNameFree(tx, orgId, input.name);
      const id = newId("role");
      const at = now();
      await tx.insert(roles).values({ id, organisationId: orgId, builtIn: null, ...input, createdAt: at, updatedAt: at });
      await auditChange(tx, actor, { id, organisationId: orgId, workspaceId: null }, "role.created", { ...input });
      return { id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(roleNameTaken(input.name));
    throw err;
  }
}
