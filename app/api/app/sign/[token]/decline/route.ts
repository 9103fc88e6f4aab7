import { publicAppRoute } from "@/server/auth/app-route";
import { declineSigning } from "@/server/domain/signing/decline-signing";
import { appDeclineSigning } from "@/server/domain/signing/operations";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/decline – decline with a reason
export const POST = publicAppRoute(appDeclineSigning, ({ db, req, params, body }) => declineSigning(db, signingRequest(req, params.token), body));
