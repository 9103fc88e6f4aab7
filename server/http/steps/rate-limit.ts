/**
 * 120 requests per 60-second window per source address, per process, all /api/v1 routes together,
 * counted before authentication (so unauthenticated floods are limited too).
 */
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";

export const RATE_LIMIT = 120;
export const RATE_WINDOW_MS = 60_000;

type Window = { start: number; count: number };
type Store = { windows: Map<string, Window>; lastSweep: number };

const KEY = Symbol.for("foliosign.rate-limit");
const slot = globalThis as Record<symbol, Store | undefined>;
const store = (): Store => (slot[KEY] ??= { windows: new Map(), lastSweep: 0 });

export type TRateLimitState = { limit: number; remaining: number; resetAt: number };

export function rateLimitHeaders(state: TRateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    "X-RateLimit-Reset": String(Math.ceil(state.resetAt / 1000)),
  };
}

/** Counts one request for `address` (null: undeterminable, counted together). Throws 429 beyond the limit. */
export function takeRateLimit(address: string | null): TRateLimitState {
  const s = store();
  const t = now().getTime();
  if (t - s.lastSweep > RATE_WINDOW_MS) {
    for (const [k, w] of s.windows) if (t - w.start >= RATE_WINDOW_MS) s.windows.delete(k);
    s.lastSweep = t;
  }
  const key = address ?? "unknown";
  let w = s.windows.get(key);
  if (!w || t - w.start >= RATE_WINDOW_MS) {
    w = { start: t, count: 0 };
    s.windows.set(key, w);
  }
  w.count += 1;
  const resetAt = w.start + RATE_WINDOW_MS;
  const state = { limit: RATE_LIMIT, remaining: Math.max(0, RATE_LIMIT - w.count), resetAt };
  if (w.count > RATE_LIMIT) {
    const err = errors.rateLimited(Math.max(1, Math.ceil((resetAt - t) / 1000)));
    Object.assign(err.headers ?? {}, rateLimitHeaders(state));
    throw err;
  }
  return state;
}

export function resetRateLimits(): void {
  store().windows.clear();
}
