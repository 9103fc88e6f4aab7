import { addTemplateRole } from "@/server/domain/templates/add-template-role";
import { listTemplateRoles } from "@/server/domain/templates/list-template-roles";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/v1/templates/{templateId}/roles – the roles in signing order
export const GET = apiRoute(ops.listTemplateRoles, ({ db, actor, params }) => listTemplateRoles(db, actor, params));

// POST /api/v1/templates/{templateId}/roles – add a role, last or at `order`
export const POST = apiRoute(ops.createTemplateRole, ({ db, actor, params, body }) => addTemplateRole(db, actor, { ...params, ...body }));
