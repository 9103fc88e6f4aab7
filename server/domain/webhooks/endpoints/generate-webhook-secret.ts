import { randomBytes } from "node:crypto";

/**
 * A new endpoint secret: `whsec_` + 32 random bytes in base64 — the Standard Webhooks format, so the
 * `standardwebhooks` library accepts it as is.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
