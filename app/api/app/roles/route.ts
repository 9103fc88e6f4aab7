import { appRoute } from "@/server/auth/app-route";
import { createRole } from "@/server/domain/organisation/create-role";
import { listRoles } from "@/server/domain/organisation/list-roles";
import { appCreateRole, appListRoles } from "@/server/domain/organisation/operations";

// GET /api/app/roles – built-in and custom roles with their permissions and usage
export const GET = appRoute(appListRoles, ({ db, actor }) => listRoles(db, actor));

// POST /api/app/roles – create a custom role (owner only; 409 on a taken name)
export const POST = appRoute(appCreateRole, ({ db, actor, body }) => createRole(db, actor, body));
