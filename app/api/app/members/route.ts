import { appRoute } from "@/server/auth/app-route";
import { addMember } from "@/server/domain/organisation/add-member";
import { listMembers } from "@/server/domain/organisation/list-members";
import { appAddMember, appListMembers } from "@/server/domain/organisation/operations";

// GET /api/app/members – the organisation's members, owner first
export const GET = appRoute(appListMembers, ({ db, actor }) => listMembers(db, actor));

// POST /api/app/members – add a member with an initial password or a one-time invite link (owner only)
export const POST = appRoute(appAddMember, ({ db, actor, body }) => addMember(db, actor, body));
