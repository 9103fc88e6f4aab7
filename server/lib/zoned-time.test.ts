import { describe, expect, it } from "vitest";
import { formatTime, formatUtc, formatZonedTime } from "./zoned-time";

const at = new Date("2026-11-23T19:40:32.500Z");

describe("zoned-time formats", () => {
  it("formats in a zone with its offset, UTC for an unknown zone, a dash for no time", () => {
    expect(formatTime(at, "Europe/Paris")).toBe("2026-11-23 20:40:32 GMT+01:00 (Europe/Paris)");
    expect(formatTime(at)).toBe("2026-11-23 19:40:32 GMT+00:00 (UTC)");
    expect(formatTime(at, "Not/AZone")).toBe("2026-11-23 19:40:32 GMT+00:00 (UTC)");
    expect(formatTime(null)).toBe("—");
    expect(formatUtc(at)).toBe("2026-11-23 19:40:32 UTC");
  });

  it("gives a recipient's time in their zone and in UTC, or UTC alone", () => {
    expect(formatZonedTime(at, "Europe/Paris")).toBe("2026-11-23 20:40:32 GMT+01:00 (Europe/Paris) · 2026-11-23 19:40:32 UTC");
    expect(formatZonedTime(at, "UTC")).toBe("2026-11-23 19:40:32 UTC");
    expect(formatZonedTime(at, null)).toBe("2026-11-23 19:40:32 UTC (time zone not recorded)");
    expect(formatZonedTime(undefined, "Europe/Paris")).toBe("—");
  });
});
