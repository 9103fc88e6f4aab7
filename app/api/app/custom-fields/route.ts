import { appRoute } from "@/server/auth/app-route";
import { createCustomField } from "@/server/domain/custom-fields/create-custom-field";
import { listCustomFields } from "@/server/domain/custom-fields/list-custom-fields";
import { appCreateCustomField, appListCustomFields } from "@/server/domain/custom-fields/operations";

// GET /api/app/custom-fields – every definition of the current workspace, active or not
export const GET = appRoute(appListCustomFields, ({ db, actor }) => listCustomFields(db, actor, { includeInactive: true }));

// POST /api/app/custom-fields – define a custom field
export const POST = appRoute(appCreateCustomField, ({ db, actor, body }) => createCustomField(db, actor, body));
