import { appRoute } from "@/server/auth/app-route";
import { appRenameWorkspace } from "@/server/domain/organisation/operations";
import { renameWorkspace } from "@/server/domain/organisation/rename-workspace";

// PATCH /api/app/workspaces/{workspaceId} – new name and slug (owner only)
export const PATCH = appRoute(appRenameWorkspace, ({ db, actor, params, body }) => renameWorkspace(db, actor, { ...body, id: params.workspaceId }));
