/**
 * "The key stops working at the end of that day, in the local time of the creator": the instant the next
 * calendar day begins in the creator's IANA time zone, computed with Intl so DST days come out right
 * (a 23- or 25-hour day, or a zone whose midnight is skipped by a DST jump).
 */
import { zonedParts } from "@/server/lib/zoned-time";

const DAY_MS = 86_400_000;

/** The wall-clock time in `timeZone` at instant `ms`, as if it were UTC (milliseconds dropped). */
function wallClock(ms: number, timeZone: string): number {
  const p = zonedParts(new Date(ms), timeZone);
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

const localDay = (ms: number, timeZone: string) => Math.floor(wallClock(ms, timeZone) / DAY_MS);

/** The first instant of calendar day `y-m-d` in `timeZone`. */
function startOfDay(y: number, m: number, d: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, d);
  const day = wall / DAY_MS;
  // Candidates: local midnight under each UTC offset in force around that day. The start of the day is a
  // candidate where the local date crosses into the day (or past it, for a day a zone skipped entirely);
  // when DST skips midnight, only the offset before the jump yields one (the jump itself, e.g. 01:00).
  const candidates = [wall - DAY_MS, wall, wall + DAY_MS].map((probe) => wall - (wallClock(probe, timeZone) - probe));
  const starts = candidates.filter((c) => localDay(c, timeZone) >= day && localDay(c - 1, timeZone) < day);
  if (starts.length === 0) throw new Error(`No start of ${y}-${m}-${d} found in ${timeZone}`);
  // A zone that repeats the hour before midnight reaches the day twice: the day ends for good at the later one.
  return new Date(Math.max(...starts));
}

/** The end of `date` ('YYYY-MM-DD') in `timeZone`: the instant the following day begins there. */
export function endOfDayInZone(date: string, timeZone: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new Error(`Not a YYYY-MM-DD date: ${date}`);
  const next = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1));
  return startOfDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}
