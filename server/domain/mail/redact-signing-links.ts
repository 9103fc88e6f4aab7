/**
 * A signing link is a credential: whoever holds it can sign as the recipient. Once SMTP has delivered a message
 * (or given up on it) the recipient has the link and Foliosign no longer needs it, so the stored copy keeps the
 * address without the token. Outbox messages (KEPT) keep their links: following them is the outbox's purpose.
 */
export const REDACTED_TOKEN = "link-removed-after-delivery";

export function redactSigningLinks(body: string): string {
  return body.replace(/\/sign\/[A-Za-z0-9._~%-]+/g, `/sign/${REDACTED_TOKEN}`);
}
