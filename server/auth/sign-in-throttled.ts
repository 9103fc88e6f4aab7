/**
 * The server's side of a throttled sign-in: the error `authorize` throws. Its message format, and the
 * reading of it, are shared with the sign-in form in common/sign-in-throttled.ts.
 */
import { signInThrottledMessage } from "@/common/sign-in-throttled";

export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(signInThrottledMessage(retryAfterSeconds));
    this.name = "SignInThrottledError";
  }
}

/** The throttle's wait in whole seconds, at least one: what Retry-After and the message say. */
export function throttledSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

export function signInThrottledError(retryAfterMs: number): SignInThrottledError {
  return new SignInThrottledError(throttledSeconds(retryAfterMs));
}
