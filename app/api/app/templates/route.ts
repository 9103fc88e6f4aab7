import { createTemplate } from "@/server/domain/templates/create-template";
import { listTemplates } from "@/server/domain/templates/list-templates";
import { appRoute } from "@/server/auth/app-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/app/templates – the workspace's templates, paged
export const GET = appRoute(ops.appListTemplates, ({ db, actor, query }) => listTemplates(db, actor, query));

// POST /api/app/templates – create a DRAFT template
export const POST = appRoute(ops.appCreateTemplate, ({ db, actor, body }) => createTemplate(db, actor, body));
