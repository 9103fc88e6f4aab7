/**
 * Protects how an attempt is cut short (attempt-signal.ts): its deadline or the shutdown, whichever comes first,
 * told apart; subscribers run once, a late one at once; nothing runs once disposed.
 */
import { describe, expect, it, vi } from "vitest";
import { attemptSignal } from "./attempt-signal";

describe("an attempt's abort", () => {
  it("runs its subscribers once at the deadline, as a TimeoutError, and says it was the deadline", () => {
    const deadline = new AbortController();
    const attempt = attemptSignal(10_000, { deadline: () => deadline.signal });
    const first = vi.fn();
    const second = vi.fn();
    attempt.onAbort(first);
    attempt.onAbort(second);
    expect(attempt.aborted).toBe(false);
    deadline.abort();
    deadline.abort();
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(attempt.aborted).toBe(true);
    expect(attempt.deadlineHit()).toBe(true);
    expect(attempt.reason).toMatchObject({ name: "TimeoutError", message: "No complete response within 10 s" });
  });

  it("is cut short by the shutdown, with its reason, not as a deadline; a late subscriber runs at once", () => {
    const shutdown = new AbortController();
    const attempt = attemptSignal(10_000, { shutdown: shutdown.signal });
    shutdown.abort(new Error("worker stopping"));
    expect(attempt.deadlineHit()).toBe(false);
    expect(attempt.reason?.message).toBe("worker stopping");
    expect(attempt.aborted).toBe(true);
    const late = vi.fn();
    attempt.onAbort(late);
    expect(late).toHaveBeenCalledTimes(1);
    attempt.dispose();
  });

  it("runs nothing for a subscriber that left, nor for anyone once disposed", () => {
    const deadline = new AbortController();
    const shutdown = new AbortController();
    const attempt = attemptSignal(10_000, { deadline: () => deadline.signal, shutdown: shutdown.signal });
    const left = vi.fn();
    const stayed = vi.fn();
    attempt.onAbort(left)();
    attempt.onAbort(stayed);
    attempt.dispose();
    deadline.abort();
    shutdown.abort();
    expect(left).not.toHaveBeenCalled();
    expect(stayed).not.toHaveBeenCalled();
    expect(attempt.aborted).toBe(false);
  });

  it("fires on its own timer when no deadline is injected", async () => {
    vi.useFakeTimers();
    try {
      const attempt = attemptSignal(50);
      const fired = vi.fn();
      attempt.onAbort(fired);
      await vi.advanceTimersByTimeAsync(49);
      expect(fired).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(fired).toHaveBeenCalledTimes(1);
      expect(attempt.deadlineHit()).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
