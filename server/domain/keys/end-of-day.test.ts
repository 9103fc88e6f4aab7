/**
 * A key's expiry date ends at the end of that day in the creator's time zone. These cases pin the instant on
 * ordinary days and on DST-change days (23- and 25-hour days) in Europe/London and America/New_York, and on
 * a day whose midnight a DST jump skips (America/Santiago), where a naive "date + 24 h" or a fixed offset
 * would be an hour off.
 */
import { describe, expect, it } from "vitest";
import { isValidTimeZone } from "@/server/lib/zoned-time";
import { endOfDayInZone } from "./end-of-day";

const at = (date: string, zone: string) => endOfDayInZone(date, zone).toISOString();

describe("endOfDayInZone", () => {
  it("Europe/London: ordinary winter and summer days", () => {
    expect(at("2026-01-15", "Europe/London")).toBe("2026-01-16T00:00:00.000Z");
    expect(at("2026-07-15", "Europe/London")).toBe("2026-07-15T23:00:00.000Z");
  });

  it("Europe/London: the 23-hour day clocks go forward and the 25-hour day they go back", () => {
    expect(at("2026-03-28", "Europe/London")).toBe("2026-03-29T00:00:00.000Z");
    expect(at("2026-03-29", "Europe/London")).toBe("2026-03-29T23:00:00.000Z");
    expect(at("2026-10-24", "Europe/London")).toBe("2026-10-24T23:00:00.000Z");
    expect(at("2026-10-25", "Europe/London")).toBe("2026-10-26T00:00:00.000Z");
  });

  it("America/New_York: ordinary day and both DST changes", () => {
    expect(at("2026-02-10", "America/New_York")).toBe("2026-02-11T05:00:00.000Z");
    expect(at("2026-03-07", "America/New_York")).toBe("2026-03-08T05:00:00.000Z");
    expect(at("2026-03-08", "America/New_York")).toBe("2026-03-09T04:00:00.000Z");
    expect(at("2026-10-31", "America/New_York")).toBe("2026-11-01T04:00:00.000Z");
    expect(at("2026-11-01", "America/New_York")).toBe("2026-11-02T05:00:00.000Z");
  });

  it("a zone whose midnight is skipped: the next day starts at the jump", () => {
    // Chile moves from -04 to -03 at local midnight: 2026-09-06 begins at 01:00 -03 = 04:00Z.
    expect(at("2026-09-05", "America/Santiago")).toBe("2026-09-06T04:00:00.000Z");
  });

  it("year end and UTC", () => {
    expect(at("2026-12-31", "UTC")).toBe("2027-01-01T00:00:00.000Z");
    expect(at("2028-02-28", "UTC")).toBe("2028-02-29T00:00:00.000Z");
  });

  it("recognises IANA zones", () => {
    expect(isValidTimeZone("Europe/London")).toBe(true);
    expect(isValidTimeZone("Mars/Olympus_Mons")).toBe(false);
  });
});
