import { deleteTemplateField } from "@/server/domain/templates/delete-template-field";
import { updateTemplateField } from "@/server/domain/templates/update-template-field";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// PATCH /api/v1/templates/{templateId}/fields/{fieldId} – change a field
export const PATCH = apiRoute(ops.updateTemplateField, ({ db, actor, params, body }) => updateTemplateField(db, actor, { ...params, ...body }));

// DELETE /api/v1/templates/{templateId}/fields/{fieldId} – remove a field
export const DELETE = apiRoute(ops.deleteTemplateField, ({ db, actor, params }) => deleteTemplateField(db, actor, params));
