import { publicAppRoute } from "@/server/auth/app-route";
import { checkSignerCode } from "@/server/domain/signing/check-signer-code";
import { isEmbedHandle } from "@/server/domain/embedding/embed-link";
import { appCheckSignerCode } from "@/server/domain/signing/operations";
import { signerCookieResponse } from "@/server/http/signer-cookie";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/authentication – the signer check: the code, then the signer cookie
export const POST = publicAppRoute(appCheckSignerCode, async ({ db, req, params, body }) =>
  signerCookieResponse((await checkSignerCode(db, signingRequest(req, params.token), body)).cookie, { embedded: isEmbedHandle(params.token) }),
);
