import { addTemplateRole } from "@/server/domain/templates/add-template-role";
import { listTemplateRoles } from "@/server/domain/templates/list-template-roles";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/app/templates/{templateId}/roles – the roles in signing order
export const GET = appRoute(ops.appListTemplateRoles, ({ db, actor, params }) => listTemplateRoles(db, actor, params));

// POST /api/app/templates/{templateId}/roles – add a role, last or at `order`
export const POST = appRoute(ops.appCreateTemplateRole, ({ db, actor, params, body }) => addTemplateRole(db, actor, { ...params, ...body }));
