/**
 * One HTTP attempt to a vetted target, through undici:
 * - the connection goes only to the address vet-target.ts checked (`connect.lookup` is pinned to it; the URL
 *   keeps its host name, so TLS SNI, certificate checks and the Host header are unchanged);
 * - redirects are never followed (a dispatch does not follow them; a 3xx is a failure);
 * - one deadline (the attempt's, attempt-signal.ts) covers connecting, the headers and the body;
 * - at most `readBytes` of the response are read, the rest is aborted; `storedChars` characters are kept.
 */
import type { LookupFunction } from "node:net";
import { Agent, type Dispatcher } from "undici";
import { createBoundedCache } from "@/server/lib/bounded-cache";
import { now } from "@/server/lib/clock";
import { attemptSignal, type TAbortable, type TAttemptSignal } from "./attempt-signal";
import { WEBHOOK_LIMITS } from "@/server/domain/webhooks/limits";

export type TPostTarget = { url: URL; address: string; family: 4 | 6 };

export type TPostResult = {
  ok: boolean;
  status: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
  remoteAddress: string;
  /** From a 429's Retry-After, in milliseconds from now. */
  retryAfterMs: number | null;
};

export type TPostOptions = {
  deadlineMs?: number;
  /** Builds the deadline signal; injectable so a test can fire the deadline without waiting for it. */
  deadline?: (ms: number) => AbortSignal;
  /** Aborts the attempt from outside (graceful shutdown). */
  signal?: AbortSignal;
  /**
   * The attempt's signal, already running (performDelivery starts it before the DNS lookup, so one deadline
   * covers the lookup, connecting, the headers and the body); when absent, one is started here from
   * `deadline`/`deadlineMs` and `signal`.
   */
  attempt?: TAttemptSignal;
  readBytes?: number;
  storedChars?: number;
};

/**
 * Agents keyed by host and vetted address, so connections are reused but never shared across addresses; at most
 * 256, the oldest closed first.
 */
const agents = createBoundedCache<string, Agent>(256, (agent) => void agent.close().catch(() => {}));

function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

function agentFor(target: TPostTarget): Agent {
  return agents.get(
    `${target.url.protocol}//${target.url.host}|${target.address}`,
    () => new Agent({ connect: { lookup: pinnedLookup(target.address, target.family) }, keepAliveTimeout: 4_000 }),
  );
}

/**
 * What PostgreSQL can store: no NUL character (text refuses it) and no lone surrogate (cutting at 1,000 UTF-16
 * units can split a pair; JSON parameters refuse it). Both become U+FFFD. A receiver's odd answer must never
 * make its outcome unwritable — the delivery would then be retried as if the worker had died.
 */
export function storable(text: string): string {
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** Retry-After as seconds or an HTTP date → milliseconds from now (null when absent or unreadable). */
export function parseRetryAfter(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now().getTime());
}

function describeError(err: unknown, deadlineHit: boolean, deadlineMs: number): string {
  if (deadlineHit) return `No complete response within ${deadlineMs / 1000} s`;
  if (err instanceof Error) {
    const code = (err as { code?: string }).code ?? (err.cause as { code?: string } | undefined)?.code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

type TAnswer = { status: number; retryAfter: string | string[] | undefined; body: Buffer };

/**
 * One POST through undici's dispatcher, read into a buffer: the status, the Retry-After header and the first
 * `limit` bytes of the body; then the request is aborted, so the rest is never read. undici's `request` would
 * wrap the same dispatch in an async resource, a readable stream for the body and every header parsed, on every
 * attempt; this handler keeps only what an outcome stores. The attempt being cut short (its deadline or the
 * shutdown) aborts it at any point; `headersSeen` hears the status as soon as the headers arrive, so an error
 * after them still reports it. A class, so that its callbacks are methods made once, not closures made (and,
 * under tsx, named one by one) for every request.
 */
class PostDispatch implements Dispatcher.DispatchHandler {
  #controller: Dispatcher.DispatchController | null = null;
  #settled = false;
  #status = 0;
  #retryAfter: string | string[] | undefined = undefined;
  #chunks: Buffer[] = [];
  #size = 0;
  #unsubscribe: () => void = noop;

  constructor(
    readonly attempt: TAbortable,
    readonly limit: number,
    readonly headersSeen: (status: number) => void,
    readonly resolve: (answer: TAnswer) => void,
    readonly reject: (err: unknown) => void,
  ) {}

  /** Dispatches the request on `agent`, unless the attempt was already cut short. */
  start(agent: Agent, target: TPostTarget, payload: { headers: Record<string, string>; body: string }, timeoutMs: number): void {
    if (this.attempt.aborted) return this.reject(this.attempt.reason ?? new Error("aborted"));
    this.#unsubscribe = this.attempt.onAbort(() => this.#cutShort());
    agent.dispatch(
      {
        origin: target.url.origin,
        path: target.url.pathname + target.url.search,
        method: "POST",
        headers: payload.headers,
        body: payload.body,
        // The deadline is ours; undici's own idle timers must not fire first with another message.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      this,
    );
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(new Error("aborted"));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return; // 1xx: informational, the answer is still to come
    this.#status = statusCode;
    this.#retryAfter = headers["retry-after"];
    this.headersSeen(statusCode);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#size >= this.limit) {
      // Enough read: the answer is complete here, the rest is refused (undici then reports the abort, which
      // #settle ignores).
      this.#settle(null, this.#answer());
      controller.abort(new Error("response read limit reached"));
    }
  }

  onResponseEnd(): void {
    this.#settle(null, this.#answer());
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.#settle(err);
  }

  #cutShort(): void {
    const reason = this.attempt.reason ?? new Error("aborted");
    if (this.#controller) this.#controller.abort(reason);
    else this.#settle(reason);
  }

  #answer(): TAnswer {
    return { status: this.#status, retryAfter: this.#retryAfter, body: Buffer.concat(this.#chunks, this.#size).subarray(0, this.limit) };
  }

  #settle(err: unknown, answer?: TAnswer): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#unsubscribe();
    if (answer) this.resolve(answer);
    else this.reject(err);
  }
}

const noop = () => {};

function dispatchPost(
  agent: Agent,
  target: TPostTarget,
  payload: { headers: Record<string, string>; body: string },
  attempt: TAbortable,
  limit: number,
  headersSeen: (status: number) => void,
  timeoutMs: number,
): Promise<TAnswer> {
  return new Promise((resolve, reject) => new PostDispatch(attempt, limit, headersSeen, resolve, reject).start(agent, target, payload, timeoutMs));
}

export async function postWebhook(
  target: TPostTarget,
  payload: { headers: Record<string, string>; body: string },
  opts: TPostOptions = {},
): Promise<TPostResult> {
  const deadlineMs = opts.deadlineMs ?? WEBHOOK_LIMITS.deadlineMs;
  const readBytes = opts.readBytes ?? WEBHOOK_LIMITS.responseReadBytes;
  const storedChars = opts.storedChars ?? WEBHOOK_LIMITS.responseStoredChars;
  const attempt = opts.attempt ?? attemptSignal(deadlineMs, { deadline: opts.deadline, shutdown: opts.signal });
  const started = performance.now();
  const base = { remoteAddress: target.address, retryAfterMs: null };
  let status: number | null = null;
  try {
    const res = await dispatchPost(agentFor(target), target, payload, attempt, readBytes, (s) => (status = s), deadlineMs + 1000);
    const text = storable(res.body.toString("utf8").slice(0, storedChars));
    status = res.status;
    const ok = status >= 200 && status < 300;
    return {
      ...base,
      ok,
      status,
      body: text,
      error: ok ? null : status >= 300 && status < 400 ? `Redirect (${status}) not followed` : `HTTP ${status}`,
      durationMs: Math.round(performance.now() - started),
      retryAfterMs: status === 429 ? parseRetryAfter(res.retryAfter) : null,
    };
  } catch (err) {
    return {
      ...base,
      ok: false,
      status,
      body: null,
      error: describeError(err, attempt.deadlineHit(), deadlineMs),
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    if (!opts.attempt) attempt.dispose();
  }
}
