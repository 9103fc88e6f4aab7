import { publicAppRoute } from "@/server/auth/app-route";
import { appConsentSigning } from "@/server/domain/signing/operations";
import { recordConsent } from "@/server/domain/signing/record-consent";
import { signingRequest } from "@/server/http/signing-request";

// POST /api/app/sign/{token}/consent – agree to sign electronically
export const POST = publicAppRoute(appConsentSigning, ({ db, req, params, query }) => recordConsent(db, signingRequest(req, params.token), query));
