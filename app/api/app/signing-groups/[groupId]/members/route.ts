import { appRoute } from "@/server/auth/app-route";
import { addSigningGroupMember } from "@/server/domain/signing-groups/add-signing-group-member";
import { appAddSigningGroupMember } from "@/server/domain/signing-groups/operations";

// POST /api/app/signing-groups/{groupId}/members – add a person to a group
export const POST = appRoute(appAddSigningGroupMember, ({ db, actor, params, body }) => addSigningGroupMember(db, actor, { ...params, ...body }));
