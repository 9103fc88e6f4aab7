/**
 * One HTTP attempt to a vetted target, through undici:
 * - the connection goes only to the address vet-target.ts checked (`connect.lookup` is pinned to it; the URL
 *   keeps its host name, so TLS SNI, certificate checks and the Host header are unchanged);
 * - redirects are never followed (undici's `request` does not follow them; a 3xx is a failure);
 * - one deadline (an AbortSignal) covers connecting, the headers and the body;
 * - at most `readBytes` of the response are read, the rest is aborted; `storedChars` characters are kept.
 */
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { Agent, request } from "undici";
import { createBoundedCache } from "@/server/lib/bounded-cache";
import { now } from "@/server/lib/clock";
import { attemptSignal, type TAttemptSignal } from "./attempt-signal";
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

/**
 * The first `limit` bytes of a response body; then the stream is destroyed, so the rest is never read. Events
 * rather than `for await`: the async iterator costs a promise per chunk, on every attempt.
 */
function readAtMost(body: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      // Destroying an unfinished body makes undici emit an abort error: swallowed, the answer is complete here.
      body
        .off("data", onData)
        .off("end", finish)
        .off("error", onError)
        .on("error", () => {});
      if (!body.destroyed) body.destroy();
      resolve(Buffer.concat(chunks, size).subarray(0, limit));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) finish();
    };
    const onError = (err: Error) => {
      body.off("data", onData).off("end", finish);
      reject(err);
    };
    body.on("data", onData).once("end", finish).once("error", onError);
  });
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
  const signal = attempt.signal;
  const started = performance.now();
  const base = { remoteAddress: target.address, retryAfterMs: null };
  let status: number | null = null;
  try {
    const res = await request(target.url, {
      method: "POST",
      headers: payload.headers,
      body: payload.body,
      dispatcher: agentFor(target),
      signal,
      // The deadline is ours; undici's own idle timers must not fire first with another message.
      headersTimeout: deadlineMs + 1000,
      bodyTimeout: deadlineMs + 1000,
    });
    status = res.statusCode;
    const text = storable((await readAtMost(res.body, readBytes)).toString("utf8").slice(0, storedChars));
    const ok = status >= 200 && status < 300;
    return {
      ...base,
      ok,
      status,
      body: text,
      error: ok ? null : status >= 300 && status < 400 ? `Redirect (${status}) not followed` : `HTTP ${status}`,
      durationMs: Math.round(performance.now() - started),
      retryAfterMs: status === 429 ? parseRetryAfter(res.headers["retry-after"]) : null,
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
