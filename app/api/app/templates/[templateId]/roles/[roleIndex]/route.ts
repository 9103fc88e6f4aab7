import { deleteTemplateRole } from "@/server/domain/templates/delete-template-role";
import { updateTemplateRole } from "@/server/domain/templates/update-template-role";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// PATCH /api/app/templates/{templateId}/roles/{roleIndex} – rename, regroup or move a role
export const PATCH = appRoute(ops.appUpdateTemplateRole, ({ db, actor, params, body }) => updateTemplateRole(db, actor, { ...params, ...body }));

// DELETE /api/app/templates/{templateId}/roles/{roleIndex} – delete a role and its fields
export const DELETE = appRoute(ops.appDeleteTemplateRole, ({ db, actor, params }) => deleteTemplateRole(db, actor, params));
