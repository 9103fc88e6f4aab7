import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import type { z } from "@/server/lib/zod";
import { checkFieldPlacement } from "./check-field-placement";
import { findTemplateField } from "./find-template-field";
import type { TFieldRef, ZUpdateField } from "./schemas";
import { toFieldView } from "./template-view";
import { withTemplateEdit } from "./with-template-edit";

export type TUpdateTemplateFieldInput = TFieldRef & z.output<typeof ZUpdateField>;

/** Changes a field; the field as it would be afterwards must pass every placement rule (checkFieldPlacement). */
export async function updateTemplateField(db: Db, actor: TActor, input: TUpdateTemplateFieldInput) {
  // The ids name the field; the rest is the change (and what the audit records as changed).
  const { templateId, fieldId, ...change } = input;
  return withTemplateEdit(db, actor, templateId, async (tx, template) => {
    const { field, roleIndex } = await findTemplateField(tx, template.id, fieldId);
    const next = {
      documentId: change.documentId ?? field.documentId,
      roleIndex: change.roleIndex ?? roleIndex,
      type: change.type ?? field.type,
      page: change.page ?? field.page,
      x: change.x ?? field.x,
      y: change.y ?? field.y,
      width: change.width ?? field.width,
      height: change.height ?? field.height,
      mergeFieldKey: change.mergeFieldKey === undefined ? field.mergeFieldKey : change.mergeFieldKey,
    };
    const roleId = await checkFieldPlacement(tx, template, next);
    const { roleIndex: _roleIndex, ...columns } = next;
    const [row] = await tx
      .update(templateFields)
      .set({
        ...columns,
        roleId,
        required: change.required ?? field.required,
        label: change.label === undefined ? field.label : change.label,
        updatedAt: now(),
      })
      .where(eq(templateFields.id, field.id))
      .returning();
    return { result: toFieldView(row!, next.roleIndex), action: "template.field_updated", data: { fieldId: field.id, changed: Object.keys(change) } };
  });
}
