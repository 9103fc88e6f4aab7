import { apiRoute } from "@/server/http/api-route";
import { listWorkspaces } from "@/server/http/operations/account";

// GET /api/v1/workspaces – exactly the key's own workspace
export const GET = apiRoute(listWorkspaces, async ({ ctx }) => ({
  active: ctx.workspace.id,
  workspaces: [ctx.workspace],
}));
