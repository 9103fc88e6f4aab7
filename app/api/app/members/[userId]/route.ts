import { appRoute } from "@/server/auth/app-route";
import { changeMemberRole } from "@/server/domain/organisation/change-member-role";
import { appChangeMemberRole, appRemoveMember } from "@/server/domain/organisation/operations";
import { removeMember } from "@/server/domain/organisation/remove-member";

// PATCH /api/app/members/{userId} – give the member another role (owner only)
export const PATCH = appRoute(appChangeMemberRole, ({ db, actor, params, body }) => changeMemberRole(db, actor, { ...body, userId: params.userId }));

// DELETE /api/app/members/{userId} – remove the member; their keys answer 401 from now on (owner only)
export const DELETE = appRoute(appRemoveMember, ({ db, actor, params }) => removeMember(db, actor, { userId: params.userId }));
