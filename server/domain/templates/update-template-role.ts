import { count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateRoles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { errors } from "@/server/lib/errors";
import type { z } from "@/server/lib/zod";
import { assertSigningGroup } from "./assert-signing-group";
import { findTemplateRole } from "./find-template-role";
import type { TRoleRef, ZUpdateRole } from "./schemas";
import { shiftRolePositions } from "./shift-role-positions";
import { toRoleView } from "./template-view";
import { withTemplateEdit } from "./with-template-edit";

export type TUpdateTemplateRoleInput = TRoleRef & z.output<typeof ZUpdateRole>;

/**
 * Renames a role, sets or clears its signing group, or moves it to `order` (the roles in between close up
 * behind it). Its fields go with it: they belong to the role, not to a position.
 */
export async function updateTemplateRole(db: Db, actor: TActor, input: TUpdateTemplateRoleInput) {
  const { roleIndex } = input;
  return withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const role = await findTemplateRole(tx, template.id, roleIndex);
    // Checked when it changes: a role keeps a group it already has (one emptied before the rule is from-template's 422).
    if (input.signingGroupId && input.signingGroupId !== role.signingGroupId) await assertSigningGroup(tx, actor, { signingGroupId: input.signingGroupId });
    const changes: Partial<typeof templateRoles.$inferInsert> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.signingGroupId !== undefined) changes.signingGroupId = input.signingGroupId;
    if (input.authentication !== undefined) changes.authMethod = input.authentication.method;
    if (input.order !== undefined && input.order !== roleIndex) {
      const [all] = await tx.select({ n: count() }).from(templateRoles).where(eq(templateRoles.templateId, template.id));
      const last = (all?.n ?? 1) - 1;
      if (input.order > last) throw errors.validation({ order: [`The template's roles are numbered 0 to ${last}`] });
      // Park the role, close the gap it leaves, open one where it goes.
      await tx.update(templateRoles).set({ position: -1 }).where(eq(templateRoles.id, role.id));
      if (input.order > roleIndex) await shiftRolePositions(tx, template.id, { from: roleIndex + 1, to: input.order }, -1);
      else await shiftRolePositions(tx, template.id, { from: input.order, to: roleIndex - 1 }, 1);
      changes.position = input.order;
    }
    const [row] = Object.keys(changes).length ? await tx.update(templateRoles).set(changes).where(eq(templateRoles.id, role.id)).returning() : [role];
    return {
      result: toRoleView(row!),
      action: "template.role_updated",
      data: { roleId: role.id, from: roleIndex, to: row!.position, changed: Object.keys(changes) },
    };
  });
}
