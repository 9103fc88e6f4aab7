/**
 * A signing link is a credential: whoever holds it can sign as the recipient. Once SMTP has delivered a message
 * (or given up on it) the recipient has the link and Foliosign no longer needs it, so the stored copy keeps the
 * address without the token. Outbox messages (KEPT) keep their links: following them is the outbox's purpose.
 */
export const REDACTED_TOKEN = "link-removed-after-delivery";

/** A signer's email code (templates/build-signing-code-mail.ts) is a credential too: removed the same way. */
const SIGNING_CODE = /(Your signing code: )\d{6}/g;
export const REDACTED_CODE = "[removed]";

export function redactSigningLinks(body: string): string {
  return redactSigningCode(body.replace(/\/sign\/[A-Za-z0-9._~%-]+/g, `/sign/${REDACTED_TOKEN}`));
}

/** Only the code: what a member reading a code mail that is still queued sees (mail-view.ts). */
export function redactSigningCode(body: string): string {
  return body.replace(SIGNING_CODE, `$1${REDACTED_CODE}`);
}
