import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { roles, TEMPLATE_ACCESS } from "@/server/db/schema";
import type { TSessionActor } from "@/server/domain/actor";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { errors } from "@/server/http/errors";
import { parseOrThrow } from "@/server/http/validation";
import { z } from "@/server/http/zod";
import { now } from "@/server/lib/clock";
import { assertOwner } from "./assert-owner";
import { assertRoleNameFree, roleNameTaken, ZRoleFields } from "./role-fields";
import { isUniqueViolation } from "./unique-violation";

/** Only the fields given change. No defaults here: an omitted permission keeps its value. */
export const ZUpdateRole = z.object({
  id: z.string().min(1),
  name: ZRoleFields.shape.name.optional(),
  apiAccess: z.boolean().optional(),
  canSendPackages: z.boolean().optional(),
  canViewAllPackages: z.boolean().optional(),
  canManageWebhooks: z.boolean().optional(),
  templateAccess: z.enum(TEMPLATE_ACCESS).optional(),
});
export type TUpdateRole = z.input<typeof ZUpdateRole>;

/**
 * Changes a custom role (owner only; built-in roles are read-only → 403). Keys act with their role's current
 * permissions, so taking API access away makes every key of the role answer 401 from its next request.
 */
export async function updateRole(db: Db, actor: TSessionActor, input: TUpdateRole): Promise<{ id: string }> {
  assertOwner(actor);
  const { id, ...changes } = parseOrThrow(ZUpdateRole, input, "input");
  const orgId = actor.organisationId;
  try {
    return await db.transaction(async (tx) => {
      const [role] = await tx.select().from(roles).where(and(eq(roles.id, id), eq(roles.organisationId, orgId)));
      if (!role) throw errors.notFound("Role");
      if (role.builtIn) throw errors.forbidden("Built-in roles are read-only");
      if (changes.name !== undefined) await assertRoleNameFree(tx, orgId, changes.name, id);
      await tx.update(roles).set({ ...changes, updatedAt: now() }).where(eq(roles.id, id));
      await recordAudit(tx, {
        organisationId: orgId,
        subjectType: "role",
        subjectId: id,
        action: "role.updated",
        actorUserId: actor.userId,
        data: { changes },
      });
      return { id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(roleNameTaken(changes.name ?? ""));
    throw err;
  }
}
