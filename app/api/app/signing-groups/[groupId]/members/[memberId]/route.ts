import { appRoute } from "@/server/auth/app-route";
import { appRemoveSigningGroupMember } from "@/server/domain/signing-groups/operations";
import { removeSigningGroupMember } from "@/server/domain/signing-groups/remove-signing-group-member";

// DELETE /api/app/signing-groups/{groupId}/members/{memberId} – remove a person from a group
export const DELETE = appRoute(appRemoveSigningGroupMember, ({ db, actor, params }) => removeSigningGroupMember(db, actor, params));
