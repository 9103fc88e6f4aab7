import { addTemplateField } from "@/server/domain/templates/add-template-field";
import { listTemplateFields } from "@/server/domain/templates/list-template-fields";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/app/templates/{templateId}/fields – the template's fields
export const GET = appRoute(ops.appListTemplateFields, ({ db, actor, params }) => listTemplateFields(db, actor, params));

// POST /api/app/templates/{templateId}/fields – place a field
export const POST = appRoute(ops.appCreateTemplateField, ({ db, actor, params, body }) => addTemplateField(db, actor, { ...params, ...body }));
