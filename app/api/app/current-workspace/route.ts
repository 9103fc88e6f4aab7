import { sessionRoute } from "@/server/auth/app-route";
import { setWorkspaceCookie } from "@/server/auth/workspace-cookie";
import { chooseWorkspace } from "@/server/domain/webhooks-app/choose-workspace";
import { ZChooseWorkspaceBody } from "@/server/domain/webhooks-app/schemas";

// POST /api/app/current-workspace – the shell's switcher: remember a workspace of the member's organisation
export const POST = sessionRoute({ body: ZChooseWorkspaceBody }, async ({ db, actor, body }) => {
  const workspace = await chooseWorkspace(db, actor, body);
  await setWorkspaceCookie(workspace.id);
  return workspace;
});
