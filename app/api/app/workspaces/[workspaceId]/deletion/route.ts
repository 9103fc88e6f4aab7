import { appRoute } from "@/server/auth/app-route";
import { previewWorkspaceDeletion } from "@/server/domain/organisation/delete-workspace";
import { appPreviewWorkspaceDeletion } from "@/server/domain/organisation/operations";

// GET /api/app/workspaces/{workspaceId}/deletion – what deleting it would take with it (owner only)
export const GET = appRoute(appPreviewWorkspaceDeletion, ({ db, actor, params }) => previewWorkspaceDeletion(db, actor, params.workspaceId));
