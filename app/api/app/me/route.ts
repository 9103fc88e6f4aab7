import { appRoute } from "@/server/auth/app-route";
import { appGetMe, appRenameMe } from "@/server/domain/organisation/operations";
import { renameMe } from "@/server/domain/organisation/rename-me";

// GET /api/app/me – the signed-in member as the app sees them
export const GET = appRoute(appGetMe, async ({ actor }) => ({
  user: actor.user,
  isOwner: actor.isOwner,
  organisation: { id: actor.organisation.id, name: actor.organisation.name },
  workspace: { ...actor.workspace, test: actor.workspace.isTest },
  role: { id: actor.role.id, name: actor.role.name, permissions: { ...actor.role.permissions, templateAccess: actor.role.templateAccess } },
}));

// PATCH /api/app/me – change the signed-in member's name
export const PATCH = appRoute(appRenameMe, ({ db, actor, body }) => renameMe(db, actor, body));
