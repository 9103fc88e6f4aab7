/**
 * One bounded HTTP(S) exchange for the evidence clients (TSA, OCSP, CRL): http/https only, a deadline covering
 * the whole exchange (headers and body), a body size cap enforced while reading, and a URL whose user:password
 * is moved into a Basic Authorization header and never appears in a message (`redactUrl`).
 * Loopback and private addresses are allowed: TSA and revocation URLs are the operator's and the CA's choice.
 */
import { redactUrl } from "@/server/lib/redact-url";

export const MAX_ANSWER_BYTES = 1024 * 1024;

export class BoundedFetchError extends Error {
  override name = "BoundedFetchError";
}

export type TBoundedRequest = {
  url: string;
  method: "GET" | "POST";
  contentType?: string;
  accept: string;
  body?: Uint8Array;
  timeoutMs: number;
  maxBytes?: number;
  fetch?: typeof fetch;
};

export async function boundedFetch(request: TBoundedRequest): Promise<Uint8Array> {
  const shown = redactUrl(request.url);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new BoundedFetchError(`${shown}: not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new BoundedFetchError(`${shown}: only http and https are used`);
  const headers: Record<string, string> = { Accept: request.accept };
  if (request.contentType) headers["Content-Type"] = request.contentType;
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.Authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  const maxBytes = request.maxBytes ?? MAX_ANSWER_BYTES;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  try {
    const response = await (request.fetch ?? globalThis.fetch)(url.href, {
      method: request.method,
      headers,
      body: request.body ? Buffer.from(request.body) : undefined,
      signal: controller.signal,
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new BoundedFetchError(`${shown}: HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length") ?? "NaN");
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new BoundedFetchError(`${shown}: the answer is larger than ${maxBytes} bytes`);
    }
    if (!response.body) return new Uint8Array(0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new BoundedFetchError(`${shown}: the answer is larger than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
    return new Uint8Array(Buffer.concat(chunks));
  } catch (error) {
    if (error instanceof BoundedFetchError) throw error;
    if (timedOut) throw new BoundedFetchError(`${shown}: no answer within ${request.timeoutMs} ms`);
    // The cause's message may quote the URL (with its credentials): say only what kind of failure it was.
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new BoundedFetchError(`${shown}: the request failed (${code})`);
  } finally {
    clearTimeout(timer);
  }
}
