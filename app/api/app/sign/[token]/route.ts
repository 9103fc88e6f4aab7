import { publicAppRoute } from "@/server/auth/app-route";
import { getSigningView } from "@/server/domain/signing/get-signing-view";
import { appGetSigningView } from "@/server/domain/signing/operations";
import { signingRequest } from "@/server/http/signing-request";

// GET /api/app/sign/{token} – the signing page's view (the token is the credential)
export const GET = publicAppRoute(appGetSigningView, ({ db, req, params }) => getSigningView(db, signingRequest(req, params.token)));
