const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    });
    if (formats.size < 500) formats.set(zone, f);
  }
  return f;
}

/** `2026-11-23 20:40:32 GMT+01:00 (Europe/Paris)`: unambiguous on paper, in the zone it is given (UTC if unknown). */
export function formatTime(at: Date | null | undefined, timeZone = "UTC"): string {
  if (!at) return "—";
  let zone = timeZone;
  let format: Intl.DateTimeFormat;
  try {
    format = formatFor(zone);
  } catch {
    // An unknown zone name (stored from a browser) falls back to UTC rather than failing the certificate.
    zone = "UTC";
    format = formatFor(zone);
  }
  const parts = format.formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const offset = get("timeZoneName") === "GMT" ? "GMT+00:00" : get("timeZoneName");
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")}:${get("second")} ${offset} (${zone})`;
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
