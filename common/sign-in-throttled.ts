/**
 * How a throttled sign-in travels to the browser. next-auth turns an error thrown by `authorize` into the
 * `error` of `signIn()`'s result, so the error message carries the wait: `SignInThrottled:<seconds>`.
 * Shared by the server, which writes it (server/auth/sign-in-throttled.ts), and the sign-in form, which reads it.
 */
const PREFIX = "SignInThrottled:";

/** The error message that carries the wait. */
export function signInThrottledMessage(retryAfterSeconds: number): string {
  return `${PREFIX}${retryAfterSeconds}`;
}

/** The seconds to wait, if `error` is a throttled sign-in; otherwise null. */
export function parseSignInThrottled(error: string | null | undefined): number | null {
  if (!error?.startsWith(PREFIX)) return null;
  const seconds = Number(error.slice(PREFIX.length));
  return Number.isInteger(seconds) && seconds > 0 ? seconds : null;
}

/** "Too many attempts, try again in N minutes", N rounded up and at least 1. */
export function throttledMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts, try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
