/**
 * An instant's calendar and clock in an IANA time zone, through Intl (so DST days come out right): the one
 * definition of server-side time formatting — the certificate's times (formatTime, formatZonedTime, formatUtc;
 * server/pdf/format-time.ts re-exports them), a key's end-of-day expiry and the time-zone checks of the keys and
 * signing inputs. One cached formatter per zone.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    // Throws a RangeError for a zone Intl does not know.
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset",
    });
    if (formats.size < 500) formats.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the zone name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

export type TZonedParts = { year: string; month: string; day: string; hour: string; minute: string; second: string; offset: string };

/**
 * The wall clock at `at` in `timeZone`, two digits a field (four for the year, 00-23 hours), and the zone's
 * offset then as Intl names it ("GMT+01:00", "GMT" for none). A RangeError for an unknown zone.
 */
export function zonedParts(at: Date, timeZone: string): TZonedParts {
  const parts = formatFor(timeZone).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
    offset: get("timeZoneName"),
  };
}

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
