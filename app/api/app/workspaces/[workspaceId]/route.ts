import { z } from "zod";
import { sessionRoute } from "@/server/auth/app-route";
import { renameWorkspace } from "@/server/domain/organisation/rename-workspace";
import { ZWorkspaceFields } from "@/server/domain/organisation/workspace-fields";

const ZParams = z.object({ workspaceId: z.string().min(1) });

// PATCH /api/app/workspaces/{workspaceId} – new name and slug (owner only)
export const PATCH = sessionRoute({ params: ZParams, body: ZWorkspaceFields }, async ({ db, actor, params, body }) =>
  renameWorkspace(db, actor, { ...body, id: params.workspaceId }),
);
