/**
 * Fixed-window rate limits per source address, per process, counted before anything else (so unauthenticated
 * floods are limited too). Each limiter counts on its own: the API's 120 requests per 60-second window for all
 * /api/v1 routes together, and the public /verify upload's own, lower limit (VERIFY_RATE_LIMIT per window), so
 * anyone hammering the check with 100 MB uploads is refused before the body is read.
 */
import { env } from "@/server/env";
import { now } from "@/server/lib/clock";
import { errors } from "@/server/lib/errors";

export const RATE_LIMIT = 120;
export const RATE_WINDOW_MS = 60_000;

/** A named counter: its limit per window (read when counted, so it can come from the environment). */
export type TRateLimiter = { name: string; limit: () => number };

/** All /api/v1 routes together. */
export const API_RATE_LIMITER: TRateLimiter = { name: "api", limit: () => RATE_LIMIT };
/** "Forgot your password?" (POST /api/app/password-reset): each request may send a mail. */
export const PASSWORD_RESET_RATE_LIMITER: TRateLimiter = { name: "password-reset", limit: () => 10 };
/** The public verification upload (POST /api/app/verify). */
export const VERIFY_RATE_LIMITER: TRateLimiter = { name: "verify", limit: () => env().VERIFY_RATE_LIMIT };

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

/**
 * Counts one request for `address` (null: undeterminable, counted together) on `limiter`. Throws 429
 * (`Rate limit exceeded`, with Retry-After and the X-RateLimit headers) beyond its limit.
 */
export function takeRateLimit(address: string | null, limiter: TRateLimiter = API_RATE_LIMITER): TRateLimitState {
  const s = store();
  const t = now().getTime();
  if (t - s.lastSweep > RATE_WINDOW_MS) {
    for (const [k, w] of s.windows) if (t - w.start >= RATE_WINDOW_MS) s.windows.delete(k);
    s.lastSweep = t;
  }
  const limit = limiter.limit();
  const key = `${limiter.name}:${address ?? "unknown"}`;
  let w = s.windows.get(key);
  if (!w || t - w.start >= RATE_WINDOW_MS) {
    w = { start: t, count: 0 };
    s.windows.set(key, w);
  }
  w.count += 1;
  const resetAt = w.start + RATE_WINDOW_MS;
  const state = { limit, remaining: Math.max(0, limit - w.count), resetAt };
  if (w.count > limit) {
    const err = errors.rateLimited(Math.max(1, Math.ceil((resetAt - t) / 1000)));
    Object.assign(err.headers ?? {}, rateLimitHeaders(state));
    throw err;
  }
  return state;
}

export function resetRateLimits(): void {
  store().windows.clear();
}
