/**
 * Schemas of the recipient's signing page backend (internal /api/app/sign/{token}/… operations): the token in
 * the path is the only credential, so every shape here says only what this one recipient may see.
 */
import { FIELD_TYPES, SIGNER_AUTH_METHODS } from "@/server/db/schema";
import { z } from "@/server/lib/zod";
import { isValidTimeZone } from "@/server/lib/zoned-time";

/** Tokens are 32 random bytes in base64url (43 characters); anything else cannot match and is refused early. */
export const ZSigningParams = z.object({ token: z.string().min(1).max(128) });
export const ZSigningDocumentParams = ZSigningParams.extend({ documentId: z.string().min(1).max(100) });
export const ZSigningFieldParams = ZSigningParams.extend({ fieldId: z.string().min(1).max(100) });

/** Why the page shows an end page instead of the documents. */
export const SIGNING_CLOSED_REASONS = [
  "NOT_SENT",
  "ON_HOLD",
  "VOIDED",
  "EXPIRED",
  "DELETED",
  "COMPLETED",
  "FINISHED",
  "DECLINED",
  "NOT_YOUR_TURN",
  "ENDED",
] as const;
export type TSigningClosedReason = (typeof SIGNING_CLOSED_REASONS)[number];

export const ZSigningField = z.object({
  id: z.string(),
  documentId: z.string(),
  type: z.enum(FIELD_TYPES),
  page: z.number().int(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  required: z.boolean(),
  label: z.string().nullable(),
  /** Set by the sender (a merge field): shown, not editable. */
  readOnly: z.boolean(),
  value: z.string().nullable(),
  valueKind: z.enum(["typed", "drawn", "uploaded", "text"]).nullable(),
  /** A drawn or uploaded image is stored; the page shows it from here. */
  hasImage: z.boolean(),
});
export type TSigningField = z.output<typeof ZSigningField>;

/**
 * A field of another recipient who has FINISHED, with the value as it will be sealed: shown on the page, never
 * editable (issue 25). Fields of a recipient who has not finished are never sent.
 */
const ZCompletedField = ZSigningField.extend({
  /** Who filled it in: the recipient's name, else their email. */
  signer: z.string(),
});
export type TCompletedField = z.output<typeof ZCompletedField>;

const ZPageSize = z.object({ width: z.number(), height: z.number() });

export const ZSigningDocument = z.object({
  id: z.string(),
  name: z.string(),
  pageCount: z.number().int().nullable(),
  pageSizes: z.array(ZPageSize).nullable(),
});

const ZOpenView = z.object({
  state: z.literal("OPEN"),
  packageTitle: z.string(),
  message: z.string().nullable(),
  recipient: z.object({ name: z.string().nullable(), email: z.string().nullable(), role: z.string().nullable() }),
  consentAt: z.string().nullable(),
  /** Today's date as the server sees it (UTC, yyyy-mm-dd): what a date field is filled with. */
  today: z.string(),
  documents: z.array(ZSigningDocument),
  fields: z.array(ZSigningField),
  /** Earlier recipients' completed values (read-only), in reading order. */
  completedFields: z.array(ZCompletedField),
});

const ZClosedView = z.object({
  state: z.literal("CLOSED"),
  reason: z.enum(SIGNING_CLOSED_REASONS),
  packageTitle: z.string().nullable(),
  /** The package is sealed: this link downloads the signed PDF (GET /api/app/sign/{token}/download). */
  signedCopy: z.boolean(),
});

/**
 * The recipient must pass the signer check first (ACCESS_CODE or EMAIL_CODE, and this browser has no signer
 * cookie): only the title and the check's state, nothing else about the package
 * (docs/decisions/signer-authentication.md).
 */
const ZAuthenticationRequiredView = z.object({
  state: z.literal("AUTHENTICATION_REQUIRED"),
  packageTitle: z.string(),
  authentication: z.object({
    method: z.enum(SIGNER_AUTH_METHODS).exclude(["NONE"]),
    locked: z.boolean().openapi({ description: "5 wrong codes: only the sender can unlock" }),
    attemptsLeft: z.number().int().openapi({ description: "Wrong codes left before the lock" }),
    codeSentAt: z.string().nullable().openapi({ description: "EMAIL_CODE: when the latest code was sent; null before the first (and for ACCESS_CODE)" }),
    codeSentTo: z.string().nullable().openapi({ description: "EMAIL_CODE: the masked address codes go to, e.g. a…@example.com; null for ACCESS_CODE" }),
  }),
});

export const ZSigningView = z.discriminatedUnion("state", [ZOpenView, ZClosedView, ZAuthenticationRequiredView]).openapi("SigningView");
export type TSigningView = z.output<typeof ZSigningView>;

export const TEXT_VALUE_MAX = 500;

export const ZSetFieldValue = z.object({
  /** Text, a date (yyyy-mm-dd), "true"/"false" for a checkbox, the typed signature or initials; null clears. */
  value: z.string().max(TEXT_VALUE_MAX, `At most ${TEXT_VALUE_MAX} characters`).nullable(),
});
export type TSetFieldValue = z.output<typeof ZSetFieldValue>;

export const ZDeclineSigning = z.object({
  reason: z.string().trim().min(1, "Tell the sender why you decline").max(1000, "At most 1000 characters"),
});

/**
 * The recipient's time zone as their browser reports it (`Intl.DateTimeFormat().resolvedOptions().timeZone`),
 * sent with consent and finish so the certificate prints their times in their zone; checked with Intl.
 */
export const ZSigningTimeZoneQuery = z.object({
  timeZone: z
    .string()
    .max(64, "At most 64 characters")
    .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, "Not an IANA time zone name, e.g. Europe/Paris")
    // Kept as the browser sent it: Node's ICU would "canonicalise" Asia/Kolkata back to Asia/Calcutta.
    .refine(isValidTimeZone, "Unknown time zone")
    .optional()
    .openapi({ description: "The signer's IANA time zone, e.g. Europe/Paris (the browser's)", example: "Europe/Paris" }),
});
export type TSigningTimeZoneQuery = z.output<typeof ZSigningTimeZoneQuery>;

export const ZConsentResult = z.object({ consentAt: z.string() });
export const ZOpenResult = z.object({ opened: z.boolean() });

/**
 * Who is at the signing page: the link's token, where the request came from (for the audit trail) and the
 * request's cookies (the signer cookie that says this browser passed the check; signer-pass.ts).
 */
export type TSigningRequest = { token: string; clientAddress: string | null; userAgent: string | null; cookies?: Record<string, string> };

export const ZSignerCode = z
  .object({ code: z.string().trim().min(1, "Enter the code").max(100, "At most 100 characters") })
  .openapi("SignerCode", { description: "The access code the sender gave, or the 6-digit code mailed to the recipient" });
export type TSignerCode = z.output<typeof ZSignerCode>;
export const ZSignerCheckResult = z.object({ passed: z.literal(true) }).openapi("SignerCheckResult");
export const ZSignerEmailCodeSent = z
  .object({ sentAt: z.string(), to: z.string().openapi({ description: "The masked address, e.g. a…@example.com" }) })
  .openapi("SignerEmailCodeSent");
