import { publicAppRoute } from "@/server/auth/app-route";
import { openSigning } from "@/server/domain/signing/open-signing";
import { appOpenSigning } from "@/server/domain/signing/operations";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/open – the page was opened (first open: SESSION_OPENED)
export const POST = publicAppRoute(appOpenSigning, ({ db, req, params }) => openSigning(db, signingRequest(req, params.token)));
