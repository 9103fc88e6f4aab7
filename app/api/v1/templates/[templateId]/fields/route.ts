import { addTemplateField } from "@/server/domain/templates/add-template-field";
import { listTemplateFields } from "@/server/domain/templates/list-template-fields";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/v1/templates/{templateId}/fields – the template's fields
export const GET = apiRoute(ops.listTemplateFields, ({ db, actor, params }) => listTemplateFields(db, actor, params));

// POST /api/v1/templates/{templateId}/fields – place a field
export const POST = apiRoute(ops.createTemplateField, ({ db, actor, params, body }) => addTemplateField(db, actor, { ...params, ...body }));
