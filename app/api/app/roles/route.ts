import { sessionRoute } from "@/server/auth/app-route";
import { createRole, ZCreateRole } from "@/server/domain/organisation/create-role";
import { listRoles } from "@/server/domain/organisation/list-roles";

// GET /api/app/roles – built-in and custom roles with their permissions and usage
export const GET = sessionRoute({}, async ({ db, actor }) => listRoles(db, actor));

// POST /api/app/roles – create a custom role (owner only; 409 on a taken name)
export const POST = sessionRoute({ body: ZCreateRole, successStatus: 201 }, async ({ db, actor, body }) => createRole(db, actor, body));
