import { appRoute } from "@/server/auth/app-route";
import { appSetWorkspaceTestMode } from "@/server/domain/organisation/operations";
import { setWorkspaceTestMode } from "@/server/domain/organisation/set-workspace-test-mode";

// PUT /api/app/workspaces/{workspaceId}/test-mode – test or live (owner only; 409 once it has sent a package)
export const PUT = appRoute(appSetWorkspaceTestMode, ({ db, actor, params, body }) => setWorkspaceTestMode(db, actor, { ...body, id: params.workspaceId }));
