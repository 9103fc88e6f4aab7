import { appRoute } from "@/server/auth/app-route";
import { confirmOwnPassword } from "@/server/auth/own-password";
import { appTransferOwnership } from "@/server/domain/organisation/operations";
import { transferOwnership } from "@/server/domain/organisation/transfer-ownership";

// POST /api/app/members/{userId}/ownership – hand the organisation to this member (owner only, with the owner's password)
export const POST = appRoute(appTransferOwnership, async ({ db, actor, params, body }) => {
  await confirmOwnPassword(db, actor, body.password, "password");
  return transferOwnership(db, actor, params.userId);
});
