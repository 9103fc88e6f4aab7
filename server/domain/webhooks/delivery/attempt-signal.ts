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

/**
 * One attempt's state, as a class: its methods exist once, where closures would be made — and, under tsx, each
 * named with `Object.defineProperty` — on every attempt. It listens on the deadline's and the shutdown's signals
 * as a listener object (`handleEvent`), and its timer calls a module function with the attempt as argument.
 */
class AttemptSignal implements TAttemptSignal {
  #aborted = false;
  #reason: Error | undefined = undefined;
  #hit = false;
  #timer: NodeJS.Timeout | undefined = undefined;
  #callbacks: (() => void)[] = [];
  readonly #deadlineMs: number;
  readonly #external: AbortSignal | undefined;
  readonly #shutdown: AbortSignal | undefined;

  constructor(deadlineMs: number, opts: { deadline?: (ms: number) => AbortSignal; shutdown?: AbortSignal }) {
    this.#deadlineMs = deadlineMs;
    this.#external = opts.deadline?.(deadlineMs);
    if (this.#external) {
      if (this.#external.aborted) this.fireDeadline();
      else this.#external.addEventListener("abort", this, { once: true });
    } else {
      this.#timer = setTimeout(fireDeadline, deadlineMs, this);
    }
    this.#shutdown = opts.shutdown;
    if (this.#shutdown) {
      if (this.#shutdown.aborted) this.#abort(this.#shutdown.reason);
      else this.#shutdown.addEventListener("abort", this, { once: true });
    }
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): Error | undefined {
    return this.#reason;
  }

  /** The deadline's signal or the shutdown's, aborted. */
  handleEvent(event: Event): void {
    if (event.target === this.#external) this.fireDeadline();
    else this.#abort(this.#shutdown?.reason);
  }

  fireDeadline(): void {
    this.#hit = true;
    this.#abort(new DOMException(`No complete response within ${this.#deadlineMs / 1000} s`, "TimeoutError"));
  }

  onAbort(fn: () => void): () => void {
    if (this.#aborted) {
      fn();
      return () => {};
    }
    this.#callbacks.push(fn);
    return () => {
      this.#callbacks = this.#callbacks.filter((f) => f !== fn);
    };
  }

  deadlineHit(): boolean {
    return this.#hit;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#external?.removeEventListener("abort", this);
    this.#shutdown?.removeEventListener("abort", this);
    this.#callbacks = [];
  }

  #abort(why: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = why instanceof Error ? why : new DOMException(String(why ?? "The attempt was aborted"), "AbortError");
    const run = this.#callbacks;
    this.#callbacks = [];
    for (const fn of run) fn();
  }
}

function fireDeadline(attempt: AttemptSignal): void {
  attempt.fireDeadline();
}

export function attemptSignal(deadlineMs: number, opts: { deadline?: (ms: number) => AbortSignal; shutdown?: AbortSignal } = {}): TAttemptSignal {
  return new AttemptSignal(deadlineMs, opts);
}
