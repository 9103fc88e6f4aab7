import { and, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { apiKeys, memberships, roles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { auditChange } from "@/server/domain/audit/audit-change";
import { errors } from "@/server/lib/errors";
import type { TDeletedRole, TDeleteRole } from "./schemas";

/**
 * Deletes a custom role that nothing uses (owner only). Built-in roles → 403. A role used by a member or by
 * any key → 409: keys cannot change role, and a revoked key still names its role in the list, so a role
 * that ever had a key stays.
 */
export async function deleteRole(db: Db, actor: TActor, input: TDeleteRole): Promise<TDeletedRole> {
  const { id } = input;
  const orgId = actor.organisation.id;
  return db.transaction(async (tx) => {
    const [role] = await tx
      .select()
      .from(roles)
      .where(and(eq(roles.id, id), eq(roles.organisationId, orgId)))
      .for("update");
    if (!role) throw errors.notFound("Role");
    if (role.builtIn) throw errors.forbidden("Built-in roles are read-only");
    const [m] = await tx.select({ n: count() }).from(memberships).where(eq(memberships.roleId, id));
    const [k] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.roleId, id));
    const members = m?.n ?? 0;
    const keys = k?.n ?? 0;
    if (members > 0 || keys > 0) {
      throw errors.conflict(`The role "${role.name}" is in use by ${members} member(s) and ${keys} API key(s), revoked keys included; it cannot be deleted`);
    }
    await tx.delete(roles).where(eq(roles.id, id));
    await auditChange(tx, actor, { id, organisationId: orgId, workspaceId: null }, "role.deleted", { name: role.name });
    return { id, deleted: true as const };
  });
}
