/**
 * Throttles password guessing at sign-in: after 10 failed attempts for one email, or 30 from one client
 * address, within a sliding 15-minute window, further attempts are refused without checking the password
 * until the oldest counted failure leaves the window. Per server process, in memory, like the /api/v1 rate
 * limit. The address limit is higher because one office behind NAT shares an address; it stops one source
 * from spraying guesses over many emails. A successful sign-in clears that email's failures.
 */
import { now } from "@/server/lib/clock";

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 30;
/** Beyond this many tracked emails and addresses, the stalest are dropped (an attacker cannot grow memory). */
const MAX_TRACKED = 50_000;

export type TSignInSource = { email: string; clientAddress: string | null };

type TStore = { failures: Map<string, number[]>; lastSweep: number };
const KEY = Symbol.for("foliosign.sign-in-throttle");
const slot = globalThis as Record<symbol, TStore | undefined>;
const store = (): TStore => (slot[KEY] ??= { failures: new Map(), lastSweep: 0 });

function limitsOf(source: TSignInSource): [string, number][] {
  const limits: [string, number][] = [[`email:${source.email}`, MAX_FAILURES_PER_EMAIL]];
  if (source.clientAddress) limits.push([`address:${source.clientAddress}`, MAX_FAILURES_PER_ADDRESS]);
  return limits;
}

function recent(s: TStore, key: string, at: number): number[] {
  const times = (s.failures.get(key) ?? []).filter((t) => at - t < SIGN_IN_WINDOW_MS);
  if (times.length === 0) s.failures.delete(key);
  else s.failures.set(key, times);
  return times;
}

function sweep(s: TStore, at: number): void {
  if (at - s.lastSweep < SIGN_IN_WINDOW_MS && s.failures.size <= MAX_TRACKED) return;
  for (const key of [...s.failures.keys()]) recent(s, key, at);
  // Maps iterate in insertion order and a key is re-inserted on each failure: the first ones are the stalest.
  for (const key of s.failures.keys()) {
    if (s.failures.size <= MAX_TRACKED) break;
    s.failures.delete(key);
  }
  s.lastSweep = at;
}

/** Milliseconds until this email and address may try again, or null if they may try now. */
export function signInRetryAfterMs(source: TSignInSource): number | null {
  const s = store();
  const at = now().getTime();
  let wait = 0;
  for (const [key, max] of limitsOf(source)) {
    const times = recent(s, key, at);
    if (times.length < max) continue;
    // Allowed again once all but (max - 1) failures have left the window.
    const freedAt = (times[times.length - max] ?? at) + SIGN_IN_WINDOW_MS;
    wait = Math.max(wait, freedAt - at);
  }
  return wait > 0 ? wait : null;
}

export function recordSignInFailure(source: TSignInSource): void {
  const s = store();
  const at = now().getTime();
  sweep(s, at);
  for (const [key, max] of limitsOf(source)) {
    const times = recent(s, key, at);
    times.push(at);
    s.failures.delete(key);
    s.failures.set(key, times.slice(-max));
  }
}

/** After a successful sign-in: the account's failures are forgotten (the address's are not). */
export function clearSignInFailures(email: string): void {
  store().failures.delete(`email:${email}`);
}

/** For tests. */
export function resetSignInThrottle(): void {
  store().failures.clear();
}
