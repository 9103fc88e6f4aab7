import { deleteTemplateRole } from "@/server/domain/templates/delete-template-role";
import { updateTemplateRole } from "@/server/domain/templates/update-template-role";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// PATCH /api/v1/templates/{templateId}/roles/{roleIndex} – rename, regroup or move a role
export const PATCH = apiRoute(ops.updateTemplateRole, ({ db, actor, params, body }) => updateTemplateRole(db, actor, { ...params, ...body }));

// DELETE /api/v1/templates/{templateId}/roles/{roleIndex} – delete a role and its fields
export const DELETE = apiRoute(ops.deleteTemplateRole, ({ db, actor, params }) => deleteTemplateRole(db, actor, params));
