/**
 * The clock, injectable: domain code asks `now()`, tests replace it with `setClock()` instead of sleeping.
 */
export type Clock = () => Date;

const KEY = Symbol.for("foliosign.clock");
const slot = globalThis as Record<symbol, Clock | undefined>;

export function now(): Date {
  const clock = slot[KEY];
  return clock ? clock() : new Date();
}

export function setClock(clock: Clock | undefined): void {
  slot[KEY] = clock;
}
