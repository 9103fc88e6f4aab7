import { apiRoute } from "@/server/http/api-route";
import { listWorkspaces } from "@/server/domain/organisation/operations";

// GET /api/v1/workspaces – exactly the key's own workspace
export const GET = apiRoute(listWorkspaces, async ({ actor }) => ({
  active: actor.workspace.id,
  workspaces: [{ ...actor.workspace, test: actor.workspace.isTest }],
}));
