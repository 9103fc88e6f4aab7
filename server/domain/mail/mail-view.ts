import type { mailMessages } from "@/server/db/schema";
import type { TMailDetail, TMailSummary } from "./schemas";

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
    attempts: row.attempts,
    nextAttemptAt: iso(row.nextAttemptAt),
    lastError: row.lastError,
    sentAt: iso(row.sentAt),
    createdAt: row.createdAt.toISOString(),
    packageId: row.packageId,
    sessionId: row.sessionId,
  };
}

export function mailDetailView(row: TRow): TMailDetail {
  return { ...mailSummaryView(row), html: row.html, text: row.text, links: extractMailLinks(row.html), serverResponse: row.serverResponse };
}
