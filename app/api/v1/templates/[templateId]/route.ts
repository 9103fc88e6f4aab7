import { deleteTemplate } from "@/server/domain/templates/delete-template";
import { getTemplate } from "@/server/domain/templates/get-template";
import { updateTemplate } from "@/server/domain/templates/update-template";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/v1/templates/{templateId} – the template with its documents, roles and fields
export const GET = apiRoute(ops.getTemplate, ({ db, actor, params }) => getTemplate(db, actor, params));

// PATCH /api/v1/templates/{templateId} – change name, description, status, merge fields, questions
export const PATCH = apiRoute(ops.updateTemplate, ({ db, actor, params, body }) => updateTemplate(db, actor, { ...params, ...body }));

// DELETE /api/v1/templates/{templateId} – delete the template
export const DELETE = apiRoute(ops.deleteTemplate, ({ db, actor, params }) => deleteTemplate(db, actor, params));
