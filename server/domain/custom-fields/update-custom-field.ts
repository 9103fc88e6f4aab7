import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { findTemplate } from "@/server/domain/templates/find-template";
import { now } from "@/server/lib/clock";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toCustomFieldView } from "./custom-field-view";
import { findCustomField } from "./find-custom-field";
import type { TUpdateCustomFieldInput } from "./schemas";

/**
 * Changes a definition's label, active flag or template scope. The key is fixed: packages store their values
 * under it, so renaming it would orphan them (delete and define a new one instead).
 */
export async function updateCustomField(db: Db, actor: TActor, input: TUpdateCustomFieldInput) {
  return db.transaction(async (tx) => {
    const before = await findCustomField(tx, actor, input.customFieldId, { forUpdate: true });
    if (input.templateId) await findTemplate(tx, actor, input.templateId);
    const changes = {
      ...(input.label !== undefined ? { label: input.label } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(input.templateId !== undefined ? { templateId: input.templateId } : {}),
    };
    const [row] = await tx
      .update(customFieldDefinitions)
      .set({ ...changes, updatedAt: now() })
      .where(eq(customFieldDefinitions.id, before.id))
      .returning();
    await auditChange(tx, actor, before.id, "custom_field.updated", { key: before.key, changes });
    return toCustomFieldView(row!);
  });
}
