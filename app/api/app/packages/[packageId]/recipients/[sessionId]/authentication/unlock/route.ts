import { appRoute } from "@/server/auth/app-route";
import { appUnlockRecipientAuthenticationOp } from "@/server/domain/packages/operations";
import { unlockRecipientAuthentication } from "@/server/domain/packages/unlock-recipient-authentication";

// POST /api/app/packages/{packageId}/recipients/{sessionId}/authentication/unlock – release a locked signer
export const POST = appRoute(appUnlockRecipientAuthenticationOp, ({ db, actor, params }) => unlockRecipientAuthentication(db, actor, params));
