import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplateField } from "./find-template-field";
import { withTemplateEdit } from "./with-template-edit";

/** Removes a field from the template. */
export async function deleteTemplateField(db: Db, actor: TActor, templateId: string, fieldId: string) {
  return withTemplateEdit(db, actor, templateId, async (tx, template) => {
    const { field } = await findTemplateField(tx, template.id, fieldId);
    await tx.delete(templateFields).where(eq(templateFields.id, field.id));
    return { result: { id: field.id, deleted: true as const }, action: "template.field_deleted", data: { fieldId: field.id, type: field.type } };
  });
}
