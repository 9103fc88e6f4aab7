import { appRoute } from "@/server/auth/app-route";
import { deleteCustomField } from "@/server/domain/custom-fields/delete-custom-field";
import { appDeleteCustomField, appUpdateCustomField } from "@/server/domain/custom-fields/operations";
import { updateCustomField } from "@/server/domain/custom-fields/update-custom-field";

// PATCH /api/app/custom-fields/{customFieldId} – change label, active flag or template scope
export const PATCH = appRoute(appUpdateCustomField, ({ db, actor, params, body }) => updateCustomField(db, actor, { ...params, ...body }));

// DELETE /api/app/custom-fields/{customFieldId} – delete a definition
export const DELETE = appRoute(appDeleteCustomField, ({ db, actor, params }) => deleteCustomField(db, actor, params));
