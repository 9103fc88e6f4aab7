/**
 * Protects the spec's retry table (1, 2, 4 … 128 minutes after the previous attempt) and the promise that
 * jitter only adds, by at most 10 %, so no retry comes earlier than documented; a 429's Retry-After wins only
 * when it asks for longer.
 */
import { describe, expect, it } from "vitest";
import { retryDelayMs, scheduledDelayMs } from "./retry-schedule";

const MIN = 60_000;

describe("retry schedule", () => {
  it("follows the spec's table and stops after the ninth attempt", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(scheduledDelayMs)).toEqual([1, 2, 4, 8, 16, 32, 64, 128].map((m) => m * MIN));
    expect(() => scheduledDelayMs(9)).toThrow(RangeError);
  });

  it("adds jitter of 0 to 10 % and never subtracts", () => {
    for (let attempt = 1; attempt <= 8; attempt++) {
      const base = scheduledDelayMs(attempt);
      for (const r of [0, 0.25, 0.5, 0.999999, 1]) {
        const delay = retryDelayMs(attempt, { random: () => r });
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(base * 1.1);
      }
      expect(retryDelayMs(attempt, { random: () => 0 })).toBe(base);
      expect(retryDelayMs(attempt, { random: () => 1 })).toBe(base * 1.1);
    }
  });

  it("takes the later of Retry-After and the schedule", () => {
    expect(retryDelayMs(1, { retryAfterMs: 5 * MIN, random: () => 0 })).toBe(5 * MIN);
    expect(retryDelayMs(3, { retryAfterMs: 10_000, random: () => 0 })).toBe(4 * MIN);
    // A receiver cannot park a delivery for ever: the hint is capped at one day.
    expect(retryDelayMs(1, { retryAfterMs: 365 * 24 * 60 * MIN, random: () => 0 })).toBe(24 * 60 * MIN);
  });
});
