import { appRoute } from "@/server/auth/app-route";
import { deleteSigningGroup } from "@/server/domain/signing-groups/delete-signing-group";
import { appDeleteSigningGroup, appUpdateSigningGroup } from "@/server/domain/signing-groups/operations";
import { renameSigningGroup } from "@/server/domain/signing-groups/rename-signing-group";

// PATCH /api/app/signing-groups/{groupId} – rename a group
export const PATCH = appRoute(appUpdateSigningGroup, ({ db, actor, params, body }) => renameSigningGroup(db, actor, { ...params, ...body }));

// DELETE /api/app/signing-groups/{groupId} – delete a group
export const DELETE = appRoute(appDeleteSigningGroup, ({ db, actor, params }) => deleteSigningGroup(db, actor, params));
