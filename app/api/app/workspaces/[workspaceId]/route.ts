import { appRoute } from "@/server/auth/app-route";
import { deleteWorkspace } from "@/server/domain/organisation/delete-workspace";
import { appDeleteWorkspace, appRenameWorkspace } from "@/server/domain/organisation/operations";
import { renameWorkspace } from "@/server/domain/organisation/rename-workspace";

// PATCH /api/app/workspaces/{workspaceId} – new name and slug (owner only)
export const PATCH = appRoute(appRenameWorkspace, ({ db, actor, params, body }) => renameWorkspace(db, actor, { ...body, id: params.workspaceId }));

// DELETE /api/app/workspaces/{workspaceId} – the workspace and everything in it (owner only; 409 when it holds evidence)
export const DELETE = appRoute(appDeleteWorkspace, ({ db, actor, params }) => deleteWorkspace(db, actor, params.workspaceId));
