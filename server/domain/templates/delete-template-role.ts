import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields, templateRoles } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplateRole } from "./find-template-role";
import type { TRoleRef } from "./schemas";
import { shiftRolePositions } from "./shift-role-positions";
import { withTemplateEdit } from "./with-template-edit";

/** Deletes the role and every field assigned to it; the roles after it move up one (their roleIndex drops by one). */
export async function deleteTemplateRole(db: Db, actor: TActor, input: TRoleRef) {
  const { roleIndex } = input;
  return withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const role = await findTemplateRole(tx, template.id, roleIndex);
    const fields = await tx.delete(templateFields).where(eq(templateFields.roleId, role.id)).returning({ id: templateFields.id });
    await tx.delete(templateRoles).where(eq(templateRoles.id, role.id));
    await shiftRolePositions(tx, template.id, { from: roleIndex + 1 }, -1);
    return {
      result: { roleIndex, deleted: true as const },
      action: "template.role_deleted",
      data: { roleId: role.id, roleIndex, name: role.name, fieldsDeleted: fields.length },
    };
  });
}
