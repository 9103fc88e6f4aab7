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
