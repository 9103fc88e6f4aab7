import { deleteTemplateField } from "@/server/domain/templates/delete-template-field";
import { updateTemplateField } from "@/server/domain/templates/update-template-field";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// PATCH /api/app/templates/{templateId}/fields/{fieldId} – change a field
export const PATCH = appRoute(ops.appUpdateTemplateField, ({ db, actor, params, body }) => updateTemplateField(db, actor, { ...params, ...body }));

// DELETE /api/app/templates/{templateId}/fields/{fieldId} – remove a field
export const DELETE = appRoute(ops.appDeleteTemplateField, ({ db, actor, params }) => deleteTemplateField(db, actor, params));
