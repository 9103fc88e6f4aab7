import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { roles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import { now } from "@/server/lib/clock";
import { assertRoleNameFree, roleNameTaken } from "./role-fields";
import { type TRoleRef, type TUpdateRole } from "./schemas";
import { isUniqueViolation } from "./unique-violation";

/**
 * Changes a custom role (owner only; built-in roles are read-only → 403). Keys act with their role's current
 * permissions, so taking API access away makes every key of the role answer 401 from its next request.
 */
export async function updateRole(db: Db, actor: TActor, input: TUpdateRole): Promise<TRoleRef> {
  const { id, ...changes } = input;
  const orgId = actor.organisation.id;
  try {
    return await db.transaction(async (tx) => {
      const [role] = await tx
        .select()
        .from(roles)
        .where(and(eq(roles.id, id), eq(roles.organisationId, orgId)));
      if (!role) throw errors.notFound("Role");
      if (role.builtIn) throw errors.forbidden("Built-in roles are read-only");
      if (changes.name !== undefined) await assertRoleNameFree(tx, orgId, changes.name, id);
      await tx
        .update(roles)
        .set({ ...changes, updatedAt: now() })
        .where(eq(roles.id, id));
      await auditChange(tx, actor, { id, organisationId: orgId, workspaceId: null }, "role.updated", { changes });
      return { id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(roleNameTaken(changes.name ?? ""));
    throw err;
  }
}
