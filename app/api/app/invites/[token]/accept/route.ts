import { publicAppRoute } from "@/server/auth/app-route";
import { acceptInvite } from "@/server/domain/organisation/accept-invite";
import { appAcceptInvite } from "@/server/domain/organisation/operations";

// POST /api/app/invites/{token}/accept – set the invited member's password (the token is the credential)
export const POST = publicAppRoute(appAcceptInvite, ({ db, params, body }) => acceptInvite(db, { ...body, token: params.token }));
