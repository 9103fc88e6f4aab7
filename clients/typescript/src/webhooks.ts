/**
 * Verifies a webhook delivery signed with Foliosign's own scheme (docs/webhooks.md, "Verifying the signature"):
 * `x-foliosign-signature` holds one `v1=<hex>` entry per valid endpoint secret (two during the 24 hours after a
 * rotation), comma-separated; each is the lower-case hex HMAC-SHA256, keyed with the secret string exactly as
 * returned (`whsec_…`, UTF-8), of `<x-foliosign-timestamp>.<raw body>`. A delivery is accepted when any entry
 * matches any of the secrets given (compared in constant time) and its timestamp (Unix seconds) is within the
 * tolerance of this machine's clock (default 300 seconds either way, against replays).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./generated/openapi";

type TSchemas = components["schemas"];

/** One delivery's body: the union of the document's `WebhookPayload_<EVENT>` schemas, discriminated by `event`. */
export type TWebhookEvent = TSchemas[Extract<keyof TSchemas, `WebhookPayload_${string}`>];

export type TWebhookVerificationFailure = "missing_headers" | "timestamp_out_of_tolerance" | "no_matching_signature" | "body_not_json";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: TWebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A fetch `Headers`, or a plain record such as Node's `req.headers` (names in any case). */
export type TWebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export type TVerifyWebhookOptions = {
  /** How far the timestamp may be from `now`, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The clock to judge the timestamp by (tests). Default: now. */
  now?: Date;
};

function header(headers: TWebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() !== name) continue;
    return typeof value === "string" ? value : value?.join(",");
  }
  return undefined;
}

/**
 * The verified event, parsed from `body` — which must be the raw bytes (or their UTF-8 text) exactly as
 * received, never JSON re-serialised by a framework. `secret`: the endpoint's secret, or several (the new and the
 * previous one while you roll a rotation out). Throws a WebhookVerificationError naming why otherwise.
 */
export function verifyWebhook(
  secret: string | readonly string[],
  headers: TWebhookHeaders,
  body: string | Uint8Array,
  options: TVerifyWebhookOptions = {},
): TWebhookEvent {
  const timestamp = header(headers, "x-foliosign-timestamp");
  const signature = header(headers, "x-foliosign-signature");
  if (!timestamp || !signature) throw new WebhookVerificationError("missing_headers", "x-foliosign-timestamp or x-foliosign-signature is missing");
  const nowSeconds = (options.now ?? new Date()).getTime() / 1000;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("timestamp_out_of_tolerance", `x-foliosign-timestamp ${timestamp} is not within the tolerance of this clock`);
  }
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const secrets = typeof secret === "string" ? [secret] : secret;
  const expected = secrets.map((s) => createHmac("sha256", Buffer.from(s, "utf8")).update(`${timestamp}.`).update(bytes).digest());
  const given = signature
    .split(",")
    .map((entry) => /^v1=([0-9a-fA-F]{64})$/.exec(entry.trim())?.[1])
    .filter((hex): hex is string => hex !== undefined)
    .map((hex) => Buffer.from(hex, "hex"));
  // Every pair is compared (no early exit), each in constant time.
  let matched = false;
  for (const g of given) for (const e of expected) matched = timingSafeEqual(g, e) || matched;
  if (!matched) throw new WebhookVerificationError("no_matching_signature", "no v1 entry of x-foliosign-signature matches the secret");
  try {
    return JSON.parse(bytes.toString("utf8")) as TWebhookEvent;
  } catch {
    throw new WebhookVerificationError("body_not_json", "the signed body is not JSON");
  }
}
