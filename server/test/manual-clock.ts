import { setClock } from "@/server/lib/clock";

/**
 * A clock a test moves by hand: `use()` puts it back at `start` and makes it the code's clock (setClock; the test
 * database's beforeEach puts the real one back), `advance(ms)` moves it, `now` reads it. Nothing sleeps.
 */
export function manualClock(start: string) {
  let at = new Date(start);
  return {
    get now(): Date {
      return at;
    },
    advance(ms: number): Date {
      return (at = new Date(at.getTime() + ms));
    },
    reset(): void {
      at = new Date(start);
    },
    use(): void {
      at = new Date(start);
      setClock(() => at);
    },
  };
}
