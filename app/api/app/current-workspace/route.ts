import { appRoute } from "@/server/auth/app-route";
import { setWorkspaceCookie } from "@/server/auth/workspace-cookie";
import { chooseWorkspace } from "@/server/domain/organisation/choose-workspace";
import { appChooseWorkspace } from "@/server/domain/organisation/operations";

// POST /api/app/current-workspace – the shell's switcher: remember a workspace of the member's organisation
export const POST = appRoute(appChooseWorkspace, async ({ db, actor, body }) => {
  const workspace = await chooseWorkspace(db, actor, body);
  await setWorkspaceCookie(workspace.id);
  return workspace;
});
