/**
 * The recipient's signing page backend. No session and no key: the token in the path is the credential
 * (publicAppRoute; the log shows `[token]`, never its value). Every answer concerns that one recipient. A
 * recipient who must authenticate passes the signer check first (appCheckSignerCode); until then every step but
 * the view and the check answers 403.
 */
import { defineOperation } from "@/server/domain/operation";
import { z } from "@/server/lib/zod";
import {
  ZConsentResult,
  ZDeclineSigning,
  ZOpenResult,
  ZSetFieldValue,
  ZSignerCheckResult,
  ZSignerCode,
  ZSignerEmailCodeSent,
  ZSigningDocumentParams,
  ZSigningField,
  ZSigningFieldParams,
  ZSigningParams,
  ZSigningTimeZoneQuery,
  ZSigningView,
} from "./schemas";

const app = { tag: "App: signing", internal: true } as const;

export const appGetSigningView = defineOperation({
  ...app,
  operationId: "appGetSigningView",
  method: "GET",
  path: "/api/app/sign/{token}",
  summary: "What the signing page shows: the documents and this recipient's fields, or why it cannot sign",
  params: ZSigningParams,
  response: ZSigningView,
  errors: [404],
});

export const appOpenSigning = defineOperation({
  ...app,
  operationId: "appOpenSigning",
  method: "POST",
  path: "/api/app/sign/{token}/open",
  summary: "The page was opened in a browser: the first open raises SESSION_OPENED",
  params: ZSigningParams,
  response: ZOpenResult,
  errors: [404],
});

export const appConsentSigning = defineOperation({
  ...app,
  operationId: "appConsentSigning",
  method: "POST",
  path: "/api/app/sign/{token}/consent",
  summary: "Agree to sign electronically (recorded once with time, address, user agent and the browser's time zone)",
  params: ZSigningParams,
  query: ZSigningTimeZoneQuery,
  response: ZConsentResult,
  errors: [404, 409],
});

export const appGetSigningDocumentFile = defineOperation({
  ...app,
  operationId: "appGetSigningDocumentFile",
  method: "GET",
  path: "/api/app/sign/{token}/documents/{documentId}/file",
  summary: "The original PDF of one of the package's documents, streamed",
  params: ZSigningDocumentParams,
  response: z.unknown().openapi({ description: "The PDF's bytes (not JSON)" }),
  errors: [404, 409],
});

export const appDownloadSignedCopy = defineOperation({
  ...app,
  operationId: "appDownloadSignedCopy",
  method: "GET",
  path: "/api/app/sign/{token}/download",
  summary: "The signed copy for this recipient: the merged sealed PDF with its certificate, once the package is COMPLETED",
  params: ZSigningParams,
  response: z.unknown().openapi({ description: "The PDF's bytes (not JSON)" }),
  errors: [404, 409, 413],
});

export const appSetSigningField = defineOperation({
  ...app,
  operationId: "appSetSigningField",
  method: "PUT",
  path: "/api/app/sign/{token}/fields/{fieldId}",
  summary: "Store a typed value of one of this recipient's fields (null clears it)",
  params: ZSigningFieldParams,
  body: ZSetFieldValue,
  response: ZSigningField,
  errors: [404, 409],
});

export const appSetSigningFieldImage = defineOperation({
  ...app,
  operationId: "appSetSigningFieldImage",
  method: "PUT",
  path: "/api/app/sign/{token}/fields/{fieldId}/image",
  summary: "Store a drawn or uploaded signature image: the body is PNG bytes (512 KB at most), checked by content",
  params: ZSigningFieldParams,
  query: z.object({ kind: z.enum(["drawn", "uploaded"]).default("drawn") }),
  rawBodyTypes: ["image/png"],
  response: ZSigningField,
  errors: [404, 409, 413],
});

export const appGetSigningFieldImage = defineOperation({
  ...app,
  operationId: "appGetSigningFieldImage",
  method: "GET",
  path: "/api/app/sign/{token}/fields/{fieldId}/image",
  summary: "The stored signature image of one of this recipient's fields",
  params: ZSigningFieldParams,
  response: z.unknown().openapi({ description: "PNG bytes (not JSON)" }),
  errors: [404, 409],
});

export const appFinishSigning = defineOperation({
  ...app,
  operationId: "appFinishSigning",
  method: "POST",
  path: "/api/app/sign/{token}/finish",
  summary: "Finish: every required field filled; SESSION_COMPLETED, then the next recipient or completion",
  params: ZSigningParams,
  query: ZSigningTimeZoneQuery,
  response: ZSigningView,
  errors: [400, 404, 409],
});

export const appDeclineSigning = defineOperation({
  ...app,
  operationId: "appDeclineSigning",
  method: "POST",
  path: "/api/app/sign/{token}/decline",
  summary: "Decline with a reason: the package ends DECLINED",
  params: ZSigningParams,
  body: ZDeclineSigning,
  response: ZSigningView,
  errors: [404, 409],
});

// ——— Signer authentication (docs/decisions/signer-authentication.md) ———

export const appSendSignerEmailCode = defineOperation({
  ...app,
  operationId: "appSendSignerEmailCode",
  method: "POST",
  path: "/api/app/sign/{token}/authentication/email-code",
  summary: "Mail a new 6-digit code to the recipient (EMAIL_CODE): valid 10 minutes, single use, at most 5 an hour",
  description:
    "429 beyond 5 codes an hour (with Retry-After). 409 when the recipient does not sign with an email code, or is locked after 5 wrong codes. The code appears only in that mail: never in an answer, a log, a webhook or the audit trail.",
  params: ZSigningParams,
  response: ZSignerEmailCodeSent,
  errors: [404, 409],
});

export const appCheckSignerCode = defineOperation({
  ...app,
  operationId: "appCheckSignerCode",
  method: "POST",
  path: "/api/app/sign/{token}/authentication",
  summary: "Pass the signer check with the access code or the mailed code: sets the signer cookie for this browser session",
  description:
    "Right: 200 and `Set-Cookie: foliosign_signer_<sessionId>` (HttpOnly, SameSite=Lax, Secure on https, no expiry: it ends with the browser session), which every other /api/app/sign/{token} step then requires (403 `Authentication required: enter your code first` without it). Wrong, expired or used: 422 at `code` with the tries left. The 5th wrong try locks the recipient, and while locked every try answers 409 until the sender unlocks or corrects them. Every try is counted in the database.",
  params: ZSigningParams,
  body: ZSignerCode,
  response: ZSignerCheckResult,
  errors: [404, 409],
});
