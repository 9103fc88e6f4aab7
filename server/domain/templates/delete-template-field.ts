import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplateField } from "./find-template-field";
import type { TFieldRef } from "./schemas";
import { withTemplateEdit } from "./with-template-edit";

/** Removes a field from the template. */
export async function deleteTemplateField(db: Db, actor: TActor, input: TFieldRef) {
  return withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const { field } = await findTemplateField(tx, template.id, input.fieldId);
    await tx.delete(templateFields).where(eq(templateFields.id, field.id));
    return { result: { id: field.id, deleted: true as const }, action: "template.field_deleted", data: { fieldId: field.id, type: field.type } };
  });
}
