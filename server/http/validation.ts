import { errors } from "@/server/lib/errors";

/** Query string → plain object; a repeated parameter becomes an array. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] ?? "");
  }
  return out;
}

/**
 * Reads a request body with a byte cap (413 beyond it, without reading the rest). The body is read once: the
 * bytes are what an Idempotency-Key's request hash covers, and then what `parseJsonBody` parses.
 */
export async function readBodyBytes(req: Request, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limitBytes) throw errors.payloadTooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => {});
        throw errors.payloadTooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * Strict UTF-8: bytes that are not UTF-8 fail instead of becoming U+FFFD (which would silently change what
 * the client sent). A leading byte-order mark is kept, so JSON.parse refuses it as before.
 */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses body bytes as JSON (400 `Invalid JSON body` when they are not UTF-8 JSON text, RFC 8259 §8.1). */
export function parseJsonBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw errors.invalidJson();
  }
}
