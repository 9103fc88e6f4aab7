import { z } from "zod";
import { sessionRoute } from "@/server/auth/app-route";
import { changeMemberRole, ZChangeMemberRole } from "@/server/domain/organisation/change-member-role";
import { removeMember } from "@/server/domain/organisation/remove-member";

const ZParams = z.object({ userId: z.string().min(1) });

// PATCH /api/app/members/{userId} – give the member another role (owner only)
export const PATCH = sessionRoute({ params: ZParams, body: ZChangeMemberRole.omit({ userId: true }) }, async ({ db, actor, params, body }) =>
  changeMemberRole(db, actor, { ...body, userId: params.userId }),
);

// DELETE /api/app/members/{userId} – remove the member; their keys answer 401 from now on (owner only)
export const DELETE = sessionRoute({ params: ZParams }, async ({ db, actor, params }) => removeMember(db, actor, { userId: params.userId }));
