import { listCustomFields } from "@/server/domain/custom-fields/list-custom-fields";
import { listCustomFields as listCustomFieldsOp } from "@/server/domain/custom-fields/operations";
import { apiRoute } from "@/server/http/api-route";

// GET /api/v1/custom-fields – active definitions, optionally those that apply to a template
export const GET = apiRoute(listCustomFieldsOp, ({ db, actor, query }) => listCustomFields(db, actor, query));
