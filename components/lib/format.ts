/**
 * Dates and times as the reader's browser shows them (these components render on the client, in the reader's
 * zone): the one date format module of the app's pages.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(iso));
}

/**
 * How precise a time is shown, and what stands for none. The webhook pages show seconds (a delivery's
 * attempts are seconds apart) and "—" for no time: `TO_THE_SECOND`.
 */
type TTimeStyle = { seconds?: boolean; empty?: string; zone?: boolean };
export const TO_THE_SECOND: TTimeStyle = { seconds: true, empty: "—" };
/**
 * A time someone may compare with another record (the /verify page: a seal's completion, a time-stamp): to the
 * second and with the reader's zone named ("25 Nov 2026, 14:03:07 CET"), so it cannot be misread as UTC.
 */
export const WITH_ZONE: TTimeStyle = { seconds: true, empty: "—", zone: true };

export function formatDateTime(iso: string | null | undefined, style: TTimeStyle = {}): string {
  if (!iso) return style.empty ?? "";
  const date = new Date(iso);
  if (style.zone) {
    // dateStyle/timeStyle cannot be combined with timeZoneName: the same fields, spelled out.
    return new Intl.DateTimeFormat(undefined, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    }).format(date);
  }
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: style.seconds ? "medium" : "short" }).format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "3 minutes ago", "just now" (under a minute, or with `seconds` under a second). */
export function formatRelative(iso: string, style: TTimeStyle = {}, nowMs: number = Date.now()): string {
  const diff = new Date(iso).getTime() - nowMs;
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, ms] of UNITS) {
    if (unit === "second" && !style.seconds) break;
    if (Math.abs(diff) >= ms) return rtf.format(Math.round(diff / ms), unit);
  }
  return "just now";
}

/** The browser's IANA time zone, e.g. "Europe/Paris": expiry dates end at midnight there. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** "1 package", "3 packages": the count with its noun, singular for one. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
