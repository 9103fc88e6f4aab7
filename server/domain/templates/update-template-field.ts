import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import type { z } from "@/server/lib/zod";
import { checkFieldPlacement } from "./check-field-placement";
import { findTemplateField } from "./find-template-field";
import type { ZUpdateField } from "./schemas";
import { toFieldView } from "./template-view";
import { withTemplateEdit } from "./with-template-edit";

export type TUpdateTemplateFieldInput = z.output<typeof ZUpdateField>;

/** Changes a field; the field as it would be afterwards must pass every placement rule (checkFieldPlacement). */
export async function updateTemplateField(db: Db, actor: TActor, templateId: string, fieldId: string, input: TUpdateTemplateFieldInput) {
  return withTemplateEdit(db, actor, templateId, async (tx, template) => {
    const { field, roleIndex } = await findTemplateField(tx, template.id, fieldId);
    const next = {
      documentId: input.documentId ?? field.documentId,
      roleIndex: input.roleIndex ?? roleIndex,
      type: input.type ?? field.type,
      page: input.page ?? field.page,
      x: input.x ?? field.x,
      y: input.y ?? field.y,
      width: input.width ?? field.width,
      height: input.height ?? field.height,
      mergeFieldKey: input.mergeFieldKey === undefined ? field.mergeFieldKey : input.mergeFieldKey,
    };
    const roleId = await checkFieldPlacement(tx, template, next);
    const { roleIndex: _roleIndex, ...columns } = next;
    const [row] = await tx
      .update(templateFields)
      .set({
        ...columns,
        roleId,
        required: input.required ?? field.required,
        label: input.label === undefined ? field.label : input.label,
        updatedAt: now(),
      })
      .where(eq(templateFields.id, field.id))
      .returning();
    return { result: toFieldView(row!, next.roleIndex), action: "template.field_updated", data: { fieldId: field.id, changed: Object.keys(input) } };
  });
}
