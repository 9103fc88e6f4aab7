/**
 * The spec's retry table: attempt n+1 comes 2^(n-1) minutes after attempt n (1, 2, 4 … 128 min), plus
 * jitter that only adds (at most 10 %), so a retry never comes earlier than documented. A 429's Retry-After
 * wins when it asks for longer (capped at a day).
 */
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";

const MINUTE = 60_000;

/** Delay before the next attempt, given how many attempts were made so far (1…8), without jitter. */
export function scheduledDelayMs(attemptsMade: number): number {
  if (attemptsMade < 1 || attemptsMade >= WEBHOOK_LIMITS.maxAttempts) {
    throw new RangeError(`No retry follows attempt ${attemptsMade}`);
  }
  return 2 ** (attemptsMade - 1) * MINUTE;
}

export function retryDelayMs(attemptsMade: number, opts: { retryAfterMs?: number | null; random?: () => number } = {}): number {
  const base = scheduledDelayMs(attemptsMade);
  const jitter = Math.floor(base * WEBHOOK_LIMITS.maxJitter * Math.min(Math.max((opts.random ?? Math.random)(), 0), 1));
  const scheduled = base + jitter;
  const hinted = opts.retryAfterMs == null ? 0 : Math.min(opts.retryAfterMs, WEBHOOK_LIMITS.maxRetryAfterMs);
  return Math.max(scheduled, hinted);
}
