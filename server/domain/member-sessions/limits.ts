/** How long a signed-in session lives, and how its activity is recorded. */
export const MEMBER_SESSION_LIMITS = {
  /** Unused this long, a session is over (its row's `last_seen_at`, checked on every request). */
  idleMs: 7 * 24 * 60 * 60 * 1000,
  /**
   * However much it is used, a session is over this long after its sign-in (its row's `signed_in_at`); the JWT
   * cookie lives as long (server/auth/options.ts), so a session in daily use is not cut at the idle limit.
   */
  lifetimeMs: 30 * 24 * 60 * 60 * 1000,
  /** `last_seen_at` moves at most this often: one write a minute per session, not one per request. */
  touchEveryMs: 60_000,
  /** The Account page lists at most this many, the most recently active first (the current one always). */
  listed: 100,
  /** The Account page shows the failed sign-ins of this many days, the newest `failedListed` of them. */
  failedSignInDays: 30,
  failedListed: 10,
  /** The User-Agent kept per session. */
  userAgentChars: 512,
} as const;

/** The User-Agent as kept (and described) for a sign-in: at most `userAgentChars`, null when empty or absent. */
export const keptUserAgent = (userAgent: string | null): string | null => userAgent?.slice(0, MEMBER_SESSION_LIMITS.userAgentChars) || null;
