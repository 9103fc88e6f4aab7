/**
 * One error class and one status table. Domain code throws `AppError`; only `errorResponse`
 * (server/http/errors.ts) builds the spec's `{ error, details? }` body. Anything else thrown is a bug:
 * 500 "Internal error", logged, no stack.
 */
export type TErrorDetails = Record<string, string[]>;

export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** An upload URL that was used or has expired (PUT /uploads/{token}). */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  /** A write to the app's API whose body is not of the type the operation reads (server/auth/same-origin-write.ts). */
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
} as const;

export type TErrorKind = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = "AppError";
  readonly kind: TErrorKind;
  readonly details?: TErrorDetails;
  readonly headers?: Record<string, string>;

  constructor(kind: TErrorKind, message: string, opts: { details?: TErrorDetails; headers?: Record<string, string> } = {}) {
    super(message);
    this.kind = kind;
    this.details = opts.details;
    this.headers = opts.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }
}

/** What a 402 names: the missing plan feature, a plan limit the change would exceed, or the used-up allowance. */
export type TPaymentRequired = { kind: "feature"; feature: string } | { kind: "limit"; limit: number; of: string } | { kind: "credit" };

/**
 * The messages the spec fixes, in one place. Build every AppError here; a capability's longer texts (documents,
 * file inspection, conversion) live in its message table and are passed to the kind's factory.
 */
export const errors = {
  invalidJson: () => new AppError("BAD_REQUEST", "Invalid JSON body"),
  badRequest: (message: string) => new AppError("BAD_REQUEST", message),
  unauthorized: () => new AppError("UNAUTHORIZED", "Unauthorized"),
  /**
   * The one 402, worded as the spec's Errors table lists its causes ("Plan lacks a feature; no credit left to
   * send; a plan limit (recipients per package, number of templates) would be exceeded. The message says which").
   */
  paymentRequired: (reason: TPaymentRequired) =>
    new AppError(
      "PAYMENT_REQUIRED",
      reason.kind === "feature"
        ? `Your plan does not include ${reason.feature}`
        : reason.kind === "limit"
          ? `Your plan's limit of ${reason.limit} ${reason.of} would be exceeded`
          : "No package credit left: the organisation's package allowance is used up",
    ),
  ipNotAllowed: () => new AppError("FORBIDDEN", "IP address not allowed"),
  missingPermission: (permission: string) => new AppError("FORBIDDEN", `Missing permission: ${permission}`),
  missingOneOf: (permissions: readonly string[]) => new AppError("FORBIDDEN", `Missing permission: one of ${permissions.join(", ")}`),
  templateAccess: (level: string) => new AppError("FORBIDDEN", `Insufficient template access: ${level} required`),
  sessionOnly: () => new AppError("FORBIDDEN", "This action requires a signed-in session, not an API key"),
  forbidden: (message = "Forbidden") => new AppError("FORBIDDEN", message),
  notFound: (what = "Resource") => new AppError("NOT_FOUND", `${what} not found`),
  /** An /api path no operation serves (server/http/unrouted-api.ts). */
  routeNotFound: () => new AppError("NOT_FOUND", "Not found"),
  inviteInvalid: () => new AppError("NOT_FOUND", "This invite link is invalid, already used or expired; ask the owner for a new one"),
  setupClosed: () => new AppError("CONFLICT", "An owner already exists; setup is closed"),
  /** A single-use upload URL that was used or has expired (messages: server/domain/documents/messages.ts). */
  gone: (message: string) => new AppError("GONE", message),
  methodNotAllowed: (allow: readonly string[]) => new AppError("METHOD_NOT_ALLOWED", "Method not allowed", { headers: { Allow: allow.join(", ") } }),
  conflict: (message: string) => new AppError("CONFLICT", message),
  payloadTooLarge: (message = "Request body too large") => new AppError("PAYLOAD_TOO_LARGE", message),
  unsupportedMediaType: (expected: readonly string[]) => new AppError("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${expected.join(" or ")}`),
  validation: (details: TErrorDetails, message = "Validation failed") => new AppError("UNPROCESSABLE", message, { details }),
  /** Well-formed input whose content is refused (a file that is not a usable PDF/DOCX, a conversion timeout); no details. */
  unprocessable: (message: string) => new AppError("UNPROCESSABLE", message),
  /** The 429: the spec's "Rate limit exceeded" by default; a throttle with its own wording (signer codes) passes it. */
  rateLimited: (retryAfterSeconds: number, message = "Rate limit exceeded") =>
    new AppError("RATE_LIMITED", message, { headers: { "Retry-After": String(retryAfterSeconds) } }),
  badGateway: (message: string) => new AppError("BAD_GATEWAY", message),
  idempotencyInProgress: () => new AppError("CONFLICT", "A request with this Idempotency-Key is still in progress"),
  idempotencyMismatch: () =>
    new AppError("UNPROCESSABLE", "Idempotency-Key was used with a different request", {
      details: { "Idempotency-Key": ["Idempotency-Key was used with a different request"] },
    }),
};
