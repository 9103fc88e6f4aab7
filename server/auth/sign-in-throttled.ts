/**
 * How a throttled sign-in travels to the browser. next-auth turns an error thrown by `authorize` into the
 * `error` of `signIn()`'s result, so the error message carries the wait: `SignInThrottled:<seconds>`.
 * Pure, so the sign-in form can read it too.
 */
const PREFIX = "SignInThrottled:";

export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`${PREFIX}${retryAfterSeconds}`);
    this.name = "SignInThrottledError";
  }
}

export function signInThrottledError(retryAfterMs: number): SignInThrottledError {
  return new SignInThrottledError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
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
