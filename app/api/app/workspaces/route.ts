import { appRoute } from "@/server/auth/app-route";
import { createWorkspace } from "@/server/domain/organisation/create-workspace";
import { listWorkspaces } from "@/server/domain/organisation/list-workspaces";
import { appCreateWorkspace, appListWorkspaces } from "@/server/domain/organisation/operations";

// GET /api/app/workspaces – the organisation's workspaces, default first
export const GET = appRoute(appListWorkspaces, ({ db, actor }) => listWorkspaces(db, actor));

// POST /api/app/workspaces – create a workspace (owner only; 409 on a taken slug)
export const POST = appRoute(appCreateWorkspace, ({ db, actor, body }) => createWorkspace(db, actor, body));
