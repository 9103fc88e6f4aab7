import { createTemplate } from "@/server/domain/templates/create-template";
import { listTemplates } from "@/server/domain/templates/list-templates";
import { apiRoute } from "@/server/http/api-route";
import * as ops from "@/server/domain/templates/operations";

// GET /api/v1/templates – the workspace's templates, paged
export const GET = apiRoute(ops.listTemplates, ({ db, actor, query }) => listTemplates(db, actor, query));

// POST /api/v1/templates – create a DRAFT template
export const POST = apiRoute(ops.createTemplate, ({ db, actor, body }) => createTemplate(db, actor, body));
