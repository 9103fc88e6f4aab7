import { appRoute } from "@/server/auth/app-route";
import { deleteRole } from "@/server/domain/organisation/delete-role";
import { appDeleteRole, appUpdateRole } from "@/server/domain/organisation/operations";
import { updateRole } from "@/server/domain/organisation/update-role";

// PATCH /api/app/roles/{roleId} – change a custom role (owner only; built-ins are read-only)
export const PATCH = appRoute(appUpdateRole, ({ db, actor, params, body }) => updateRole(db, actor, { ...body, id: params.roleId }));

// DELETE /api/app/roles/{roleId} – delete an unused custom role (owner only; 409 while in use)
export const DELETE = appRoute(appDeleteRole, ({ db, actor, params }) => deleteRole(db, actor, { id: params.roleId }));
