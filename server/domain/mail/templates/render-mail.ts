/**
 * The one layout of every message: plain, accessible HTML (a language, a title, real text and a real link —
 * no images, no remote resources, no scripts) and the same content as a text part. Every value is escaped
 * here, so the builders pass raw strings.
 */
export type TMailBlock =
  | { kind: "p"; text: string }
  /** A quoted message (the sender's words, a decline reason), introduced by its label. */
  | { kind: "quote"; label: string; text: string }
  /** The call to action; its address is also printed as text for clients that hide buttons. */
  | { kind: "button"; label: string; url: string }
  | { kind: "small"; text: string };

export type TRenderedMail = { subject: string; html: string; text: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A header value on one line: a title with a line break must not start a second header or a second subject line. */
export const oneLine = (s: string): string => s.replace(/[\r\n\t\u2028\u2029]+/g, " ").trim();

const paragraphs = (s: string) =>
  s
    .split(/\r?\n/)
    .map((line) => escapeHtml(line))
    .join("<br>");

function blockHtml(b: TMailBlock): string {
  switch (b.kind) {
    case "p":
      return `<p style="margin:0 0 16px">${paragraphs(b.text)}</p>`;
    case "small":
      return `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">${paragraphs(b.text)}</p>`;
    case "quote":
      return (
        `<p style="margin:0 0 4px;font-weight:600">${escapeHtml(b.label)}</p>` +
        `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid #d1d5db;background:#f9fafb">${paragraphs(b.text)}</blockquote>`
      );
    case "button": {
      const url = escapeHtml(b.url);
      return (
        `<p style="margin:24px 0"><a href="${url}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:#1d4ed8;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(b.label)}</a></p>` +
        `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">If the button does not work, copy this address into your browser:<br><a href="${url}" style="color:#1d4ed8;word-break:break-all">${url}</a></p>`
      );
    }
  }
}

function blockText(b: TMailBlock): string {
  switch (b.kind) {
    case "p":
    case "small":
      return b.text;
    case "quote":
      return `${b.label}\n${b.text
        .split(/\r?\n/)
        .map((l) => `> ${l}`)
        .join("\n")}`;
    case "button":
      return `${b.label}: ${b.url}`;
  }
}

export function renderMail(mail: { subject: string; blocks: TMailBlock[] }): TRenderedMail {
  const subject = oneLine(mail.subject);
  const footer = "Sent by Foliosign, an electronic signature service.";
  // The card wraps what has no break point (a one-word title, a long link) on a phone: overflow-wrap for
  // browsers, word-wrap and word-break for older mail clients (mail-layout.test.ts).
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px 12px;background:#f3f4f6;font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:16px;line-height:1.5;color:#111827">` +
    `<div role="article" aria-label="${escapeHtml(subject)}" style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;overflow-wrap:anywhere;word-wrap:break-word;word-break:break-word">` +
    mail.blocks.map(blockHtml).join("") +
    `<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0 12px"><p style="margin:0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>` +
    `</div></body></html>`;
  const text = `${mail.blocks.map(blockText).join("\n\n")}\n\n--\n${footer}\n`;
  return { subject, html, text };
}

/** "23 November 2030, 14:05 UTC": mail has no reader's zone, so times are said in UTC, unambiguously. */
export function formatMailTime(at: Date): string {
  const date = at.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const time = at.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${date}, ${time} UTC`;
}

export const greeting = (name: string | null | undefined): string => (name && name.trim() ? `Hello ${oneLine(name)},` : "Hello,");
