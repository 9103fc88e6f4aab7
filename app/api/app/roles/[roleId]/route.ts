import { z } from "zod";
import { sessionRoute } from "@/server/auth/app-route";
import { deleteRole } from "@/server/domain/organisation/delete-role";
import { updateRole, ZUpdateRole } from "@/server/domain/organisation/update-role";

const ZParams = z.object({ roleId: z.string().min(1) });

// PATCH /api/app/roles/{roleId} – change a custom role (owner only; built-ins are read-only)
export const PATCH = sessionRoute({ params: ZParams, body: ZUpdateRole.omit({ id: true }) }, async ({ db, actor, params, body }) =>
  updateRole(db, actor, { ...body, id: params.roleId }),
);

// DELETE /api/app/roles/{roleId} – delete an unused custom role (owner only; 409 while in use)
export const DELETE = sessionRoute({ params: ZParams }, async ({ db, actor, params }) => deleteRole(db, actor, { id: params.roleId }));
