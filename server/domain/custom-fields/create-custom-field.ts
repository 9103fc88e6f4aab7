import { and, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { customFieldDefinitions } from "@/server/db/schema";
import type { TActor } from "@/server/domain/access/actor";
import { isUniqueViolation } from "@/server/domain/organisation/unique-violation";
import { findTemplate } from "@/server/domain/templates/find-template";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";
import { newId } from "@/server/lib/ids";
import { auditChange } from "@/server/domain/audit/audit-change";
import { toCustomFieldView } from "./custom-field-view";
import type { TCreateCustomField } from "./schemas";

export const customFieldKeyTaken = (key: string) => `A custom field with the key "${key}" already exists in this workspace`;

/**
 * Defines a custom field (key unique in the workspace → 409, case-sensitive like metadata keys; a template
 * scope not in the workspace → 404).
 */
export async function createCustomField(db: Db, actor: TActor, input: TCreateCustomField) {
  try {
    return await db.transaction(async (tx) => {
      if (input.templateId) await findTemplate(tx, actor, input.templateId);
      const [clash] = await tx
        .select({ id: customFieldDefinitions.id })
        .from(customFieldDefinitions)
        .where(and(eq(customFieldDefinitions.workspaceId, actor.workspace.id), eq(customFieldDefinitions.key, input.key)));
      if (clash) throw errors.conflict(customFieldKeyTaken(input.key));
      const at = now();
      const [row] = await tx
        .insert(customFieldDefinitions)
        .values({
          id: newId("cfd"),
          organisationId: actor.organisation.id,
          workspaceId: actor.workspace.id,
          key: input.key,
          label: input.label,
          active: input.active,
          templateId: input.templateId,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      await auditChange(tx, actor, row!.id, "custom_field.created", { key: input.key, label: input.label, active: input.active, templateId: input.templateId });
      return toCustomFieldView(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict(customFieldKeyTaken(input.key));
    throw err;
  }
}
