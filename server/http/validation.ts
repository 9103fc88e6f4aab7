import { errors } from "@/server/lib/errors";
import { readCapped } from "@/server/lib/read-capped";

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
 * Reads a request body with a byte cap (413, with `tooLarge` when given, as soon as the declared length or the
 * bytes read pass it, without reading the rest). The body is read once: the bytes are what an
 * Idempotency-Key's request hash covers, and then what `parseJsonBody` parses.
 */
export async function readBodyBytes(req: Request, limitBytes: number, tooLarge?: string): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limitBytes) throw errors.payloadTooLarge(tooLarge);
  const bytes = await readCapped(req.body, limitBytes);
  if (!bytes) throw errors.payloadTooLarge(tooLarge);
  return bytes;
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
