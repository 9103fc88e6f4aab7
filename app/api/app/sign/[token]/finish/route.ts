import { publicAppRoute } from "@/server/auth/app-route";
import { finishSigning } from "@/server/domain/signing/finish-signing";
import { appFinishSigning } from "@/server/domain/signing/operations";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/finish – finish signing (a double submit completes once)
export const POST = publicAppRoute(appFinishSigning, ({ db, req, params, query }) => finishSigning(db, signingRequest(req, params.token), query));
