import { z } from "zod";
import { publicRoute } from "@/server/auth/app-route";
import { acceptInvite, ZAcceptInvite } from "@/server/domain/organisation/accept-invite";

const ZParams = z.object({ token: z.string().min(1) });

// POST /api/app/invites/{token}/accept – set the invited member's password (the token is the credential)
export const POST = publicRoute({ params: ZParams, body: ZAcceptInvite.omit({ token: true }) }, async ({ db, params, body }) =>
  acceptInvite(db, { ...body, token: params.token }),
);
