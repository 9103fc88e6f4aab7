import { sessionRoute } from "@/server/auth/app-route";
import { addMember, ZAddMember } from "@/server/domain/organisation/add-member";
import { listMembers } from "@/server/domain/organisation/list-members";

// GET /api/app/members – the organisation's members, owner first
export const GET = sessionRoute({}, async ({ db, actor }) => listMembers(db, actor));

// POST /api/app/members – add a member with an initial password or a one-time invite link (owner only)
export const POST = sessionRoute({ body: ZAddMember, successStatus: 201 }, async ({ db, actor, body }) => addMember(db, actor, body));
