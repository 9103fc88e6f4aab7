/**
 * An instant's calendar and clock in an IANA time zone, through Intl (so DST days come out right): the one
 * zone formatter behind the certificate's times (server/pdf/format-time.ts), a key's end-of-day expiry and the
 * time-zone checks of the keys and signing inputs. One cached formatter per zone.
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
