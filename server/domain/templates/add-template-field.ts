import type { Db } from "@/server/db/client";
import { templateFields } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import type { z } from "@/server/lib/zod";
import { checkFieldPlacement } from "./check-field-placement";
import type { TTemplateRef, ZCreateField } from "./schemas";
import { toFieldView } from "./template-view";
import { withTemplateEdit } from "./with-template-edit";

export type TAddTemplateFieldInput = TTemplateRef & z.output<typeof ZCreateField>;

/** Places a field for a role on a page of one of the template's uploaded PDFs (see checkFieldPlacement). */
export async function addTemplateField(db: Db, actor: TActor, input: TAddTemplateFieldInput) {
  return withTemplateEdit(db, actor, input.templateId, async (tx, template) => {
    const mergeFieldKey = input.mergeFieldKey ?? null;
    const roleId = await checkFieldPlacement(tx, template, { ...input, mergeFieldKey });
    const at = now();
    const [row] = await tx
      .insert(templateFields)
      .values({
        id: newId("tfld"),
        templateId: template.id,
        documentId: input.documentId,
        roleId,
        type: input.type,
        page: input.page,
        x: input.x,
        y: input.y,
        width: input.width,
        height: input.height,
        required: input.required,
        label: input.label ?? null,
        mergeFieldKey,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    return {
      result: toFieldView(row!, input.roleIndex),
      action: "template.field_added",
      data: { fieldId: row!.id, type: row!.type, documentId: row!.documentId },
    };
  });
}
