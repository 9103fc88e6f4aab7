import { sessionRoute } from "@/server/auth/app-route";
import { createWorkspace, ZCreateWorkspace } from "@/server/domain/organisation/create-workspace";
import { listWorkspaces } from "@/server/domain/organisation/list-workspaces";

// GET /api/app/workspaces – the organisation's workspaces, default first
export const GET = sessionRoute({}, async ({ db, actor }) => listWorkspaces(db, actor));

// POST /api/app/workspaces – create a workspace (owner only; 409 on a taken slug)
export const POST = sessionRoute({ body: ZCreateWorkspace, successStatus: 201 }, async ({ db, actor, body }) =>
  createWorkspace(db, actor, body),
);
