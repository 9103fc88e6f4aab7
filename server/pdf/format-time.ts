import { isValidTimeZone, zonedParts } from "@/server/lib/zoned-time";

/** `2026-11-23 20:40:32 GMT+01:00 (Europe/Paris)`: unambiguous on paper, in the zone it is given (UTC if unknown). */
export function formatTime(at: Date | null | undefined, timeZone = "UTC"): string {
  if (!at) return "—";
  // An unknown zone name (stored from a browser) falls back to UTC rather than failing the certificate.
  const zone = isValidTimeZone(timeZone) ? timeZone : "UTC";
  const p = zonedParts(at, zone);
  const offset = p.offset === "GMT" ? "GMT+00:00" : p.offset;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offset} (${zone})`;
}

/** `2026-11-23 19:40:32 UTC`. */
export function formatUtc(at: Date): string {
  return `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 19)} UTC`;
}

/**
 * A recipient's time on the certificate: in their own zone (name and UTC offset) and in UTC,
 * `2026-11-23 20:40:32 GMT+01:00 (Europe/Paris) · 2026-11-23 19:40:32 UTC`; in UTC alone when their zone was
 * never recorded (or is UTC): `2026-11-23 19:40:32 UTC (time zone not recorded)`.
 */
export function formatZonedTime(at: Date | null | undefined, timeZone: string | null | undefined): string {
  if (!at) return "—";
  if (!timeZone) return `${formatUtc(at)} (time zone not recorded)`;
  const local = formatTime(at, timeZone);
  return local.endsWith("(UTC)") ? formatUtc(at) : `${local} · ${formatUtc(at)}`;
}
