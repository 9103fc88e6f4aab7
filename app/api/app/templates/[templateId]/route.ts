import { deleteTemplate } from "@/server/domain/templates/delete-template";
import { getTemplate } from "@/server/domain/templates/get-template";
import { updateTemplate } from "@/server/domain/templates/update-template";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/app/templates/{templateId} – the template with its documents, roles and fields
export const GET = appRoute(ops.appGetTemplate, ({ db, actor, params }) => getTemplate(db, actor, params));

// PATCH /api/app/templates/{templateId} – change name, description, status, merge fields, questions
export const PATCH = appRoute(ops.appUpdateTemplate, ({ db, actor, params, body }) => updateTemplate(db, actor, { ...params, ...body }));

// DELETE /api/app/templates/{templateId} – delete the template
export const DELETE = appRoute(ops.appDeleteTemplate, ({ db, actor, params }) => deleteTemplate(db, actor, params));
