/**
 * Times a reader may compare with another record name their zone (issue 25, point 6: /verify showed
 * "25/11/2026, 14:03:07" with no zone, which reads as UTC as easily as local time). WITH_ZONE spells the zone out.
 */
import { afterEach, describe, expect, it } from "vitest";
import { formatDateTime, WITH_ZONE } from "./format";

const previous = process.env.TZ;
afterEach(() => {
  if (previous === undefined) delete process.env.TZ;
  else process.env.TZ = previous;
});

describe("formatDateTime with WITH_ZONE", () => {
  it("shows the seconds and names the reader's zone", () => {
    process.env.TZ = "Europe/Paris";
    const shown = formatDateTime("2026-11-25T13:03:07.000Z", WITH_ZONE);
    expect(shown).toMatch(/:03:07/);
    expect(shown).toMatch(/GMT\+1|CET/);
    process.env.TZ = "UTC";
    expect(formatDateTime("2026-11-25T13:03:07.000Z", WITH_ZONE)).toMatch(/UTC|GMT/);
  });

  it("keeps the empty mark and leaves the other styles without a zone", () => {
    process.env.TZ = "Europe/Paris";
    expect(formatDateTime(null, WITH_ZONE)).toBe("—");
    expect(formatDateTime("2026-11-25T13:03:07.000Z")).not.toMatch(/GMT|CET/);
  });
});
