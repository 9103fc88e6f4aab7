/**
 * The abort signal of one attempt: ONE deadline (10 s over the DNS lookup, connecting, the headers and the
 * body) or the worker's shutdown, whichever comes first, as a single AbortController with a single timer.
 * (It replaces `AbortSignal.timeout` + `AbortSignal.any`, which cost ~18 µs per attempt and were made twice:
 * measured with bench/webhooks.ts, where every microsecond per delivery shows in the drain.)
 * `deadlineHit()` tells the deadline from a shutdown; `dispose()` clears the timer and the listeners once the
 * attempt is over. A test can fire the deadline itself by passing `deadline` (it builds the deadline's signal).
 */
export type TAttemptSignal = {
  signal: AbortSignal;
  deadlineHit(): boolean;
  dispose(): void;
};

export function attemptSignal(deadlineMs: number, opts: { deadline?: (ms: number) => AbortSignal; shutdown?: AbortSignal } = {}): TAttemptSignal {
  const controller = new AbortController();
  let hit = false;
  let timer: NodeJS.Timeout | undefined;
  const onDeadline = () => {
    hit = true;
    controller.abort(new DOMException(`No complete response within ${deadlineMs / 1000} s`, "TimeoutError"));
  };
  const external = opts.deadline?.(deadlineMs);
  if (external) {
    if (external.aborted) onDeadline();
    else external.addEventListener("abort", onDeadline, { once: true });
  } else {
    timer = setTimeout(onDeadline, deadlineMs);
  }
  const shutdown = opts.shutdown;
  const onShutdown = () => controller.abort(shutdown?.reason);
  if (shutdown) {
    if (shutdown.aborted) onShutdown();
    else shutdown.addEventListener("abort", onShutdown, { once: true });
  }
  return {
    signal: controller.signal,
    deadlineHit: () => hit,
    dispose() {
      clearTimeout(timer);
      external?.removeEventListener("abort", onDeadline);
      shutdown?.removeEventListener("abort", onShutdown);
    },
  };
}
