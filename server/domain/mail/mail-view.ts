import type { mailMessages } from "@/server/db/schema";
import type { TMailDetail, TMailSummary } from "./schemas";
import { redactSigningCode } from "./redact-signing-links";

type TRow = typeof mailMessages.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e]!);

/** The links of a message's HTML (our own templates: `<a href="…">text</a>`), in order, without repeats. */
export function extractMailLinks(html: string): { text: string; url: string }[] {
  const seen = new Set<string>();
  const links: { text: string; url: string }[] = [];
  for (const m of html.matchAll(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)) {
    const url = unescape(m[1]!);
    if (seen.has(url)) continue;
    seen.add(url);
    links.push({ url, text: unescape(m[2]!.replace(/<[^>]*>/g, "")).trim() });
  }
  return links;
}

export function mailSummaryView(row: TRow): TMailSummary {
  return {
    id: row.id,
    kind: row.kind,
    to: { email: row.toEmail, name: row.toName },
    subject: row.subject,
    status: row.status,
    transport: row.transport,
    test: row.test,
    attempts: row.attempts,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastError: row.lastError,
    sentAt: iso(row.sentAt),
    createdAt: row.createdAt.toISOString(),
    packageId: row.packageId,
    sessionId: row.sessionId,
  };
}

/**
 * A signer's code mail never shows its code to a member while it waits for SMTP (once delivered the stored copy
 * has none); the outbox (KEPT, no SMTP configured) is the only mailbox there is, so it shows the message whole.
 */
export function mailDetailView(row: TRow): TMailDetail {
  const hide = row.kind === "SIGNING_CODE" && row.status !== "KEPT";
  const html = hide ? redactSigningCode(row.html) : row.html;
  const text = hide ? redactSigningCode(row.text) : row.text;
  return { ...mailSummaryView(row), html, text, links: extractMailLinks(html), serverResponse: row.serverResponse };
}
