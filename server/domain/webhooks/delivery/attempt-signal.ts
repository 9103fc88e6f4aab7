/**
 * How one attempt is cut short: ONE deadline (10 s over the DNS lookup, connecting, the headers and the body) or
 * the worker's shutdown, whichever comes first, with a single timer. Whoever waits on the attempt subscribes with
 * `onAbort` (a plain callback: the DNS lookup, the HTTP request); no AbortController is made. An AbortController
 * and its listeners per attempt cost ~7 µs, on every attempt (measured, bench/README.md); a timer and a callback
 * ~0.4 µs. (The AbortController had itself replaced `AbortSignal.timeout` + `AbortSignal.any`, ~18 µs, made twice.)
 * `deadlineHit()` tells the deadline from a shutdown; `dispose()` clears the timer and the listeners once the
 * attempt is over. A test can fire the deadline itself by passing `deadline` (it builds the deadline's signal).
 */
export type TAbortable = {
  /** Whether the attempt was cut short (its deadline, or the shutdown). */
  readonly aborted: boolean;
  /** Why: the deadline's TimeoutError or the shutdown's reason. */
  readonly reason: Error | undefined;
  /** Runs `fn` once when the attempt is cut short (at once if it already was); returns what unsubscribes it. */
  onAbort(fn: () => void): () => void;
};

export type TAttemptSignal = TAbortable & {
  deadlineHit(): boolean;
  dispose(): void;
};

export function attemptSignal(deadlineMs: number, opts: { deadline?: (ms: number) => AbortSignal; shutdown?: AbortSignal } = {}): TAttemptSignal {
  let aborted = false;
  let reason: Error | undefined;
  let hit = false;
  let timer: NodeJS.Timeout | undefined;
  let callbacks: (() => void)[] = [];
  const abort = (why: unknown) => {
    if (aborted) return;
    aborted = true;
    reason = why instanceof Error ? why : new DOMException(String(why ?? "The attempt was aborted"), "AbortError");
    const run = callbacks;
    callbacks = [];
    for (const fn of run) fn();
  };
  const onDeadline = () => {
    hit = true;
    abort(new DOMException(`No complete response within ${deadlineMs / 1000} s`, "TimeoutError"));
  };
  const external = opts.deadline?.(deadlineMs);
  if (external) {
    if (external.aborted) onDeadline();
    else external.addEventListener("abort", onDeadline, { once: true });
  } else {
    timer = setTimeout(onDeadline, deadlineMs);
  }
  const shutdown = opts.shutdown;
  const onShutdown = () => abort(shutdown?.reason);
  if (shutdown) {
    if (shutdown.aborted) onShutdown();
    else shutdown.addEventListener("abort", onShutdown, { once: true });
  }
  return {
    get aborted() {
      return aborted;
    },
    get reason() {
      return reason;
    },
    onAbort(fn) {
      if (aborted) {
        fn();
        return () => {};
      }
      callbacks.push(fn);
      return () => {
        callbacks = callbacks.filter((f) => f !== fn);
      };
    },
    deadlineHit: () => hit,
    dispose() {
      clearTimeout(timer);
      external?.removeEventListener("abort", onDeadline);
      shutdown?.removeEventListener("abort", onShutdown);
      callbacks = [];
    },
  };
}
