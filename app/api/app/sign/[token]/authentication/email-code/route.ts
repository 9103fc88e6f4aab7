import { publicAppRoute } from "@/server/auth/app-route";
import { appSendSignerEmailCode } from "@/server/domain/signing/operations";
import { sendSignerEmailCode } from "@/server/domain/signing/send-signer-email-code";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/authentication/email-code – mail a code to the recipient (EMAIL_CODE)
export const POST = publicAppRoute(appSendSignerEmailCode, ({ db, req, params }) => sendSignerEmailCode(db, signingRequest(req, params.token)));
