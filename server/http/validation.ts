import type { TOperation } from "@/server/domain/operation";
import { errors, type TErrorDetails } from "@/server/lib/errors";
import { parseInput, parseOrThrow } from "@/server/lib/parse";
import { readCapped } from "@/server/lib/read-capped";
import { z } from "@/server/lib/zod";
import { BODY_CUT_OFF } from "./client-body";

/** Query string → plain object; a repeated parameter becomes an array. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] ?? "");
  }
  return out;
}

/** Whether a query field takes several values (an array): none does today, so a repeated parameter is a mistake. */
function takesSeveral(schema: z.ZodType): boolean {
  let s: z.core.$ZodType = schema;
  for (let i = 0; i < 8; i++) {
    const def = s._zod.def as z.core.$ZodTypeDef & { innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.type === "array") return true;
    if (def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else return false;
  }
  return false;
}

/**
 * The query string parsed by the operation's schema (422 by parameter name). A parameter the schema declares
 * once but the request repeats (`status=DRAFT&status=COMPLETED`) is named as what it is, "Give status once",
 * not as a wrong value; the other parameters are still checked and named beside it.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.output<S> {
  const value = searchParamsToObject(params);
  const repeated = Object.keys(value).filter((key) => Array.isArray(value[key]) && Object.hasOwn(schema.shape, key) && !takesSeveral(schema.shape[key]!));
  const result = parseInput(schema, value, "query");
  if (result.success && repeated.length === 0) return result.data;
  const details: TErrorDetails = result.success ? {} : result.details;
  for (const key of repeated) details[key] = [`Give ${key} once`];
  throw errors.validation(details);
}

/**
 * What an operation without a body of its own may carry: nothing, or an empty JSON object. Anything else is
 * refused like a bad body (400 not JSON, 422 with each unknown key named), so a client that thinks it sends
 * input (a secret of its own to rotate-secret, say) learns that it is not read. Also the OpenAPI `NoBody`.
 */
export const ZNoBody = z.object({}).strict().openapi("NoBody", {
  description: "Optional: an empty JSON object `{}` (or no body at all). This operation takes no input in its body; anything else is 400 or 422.",
  example: {},
});

/**
 * Whether the route wrapper reads the request's body: every operation but a read (GET) and a raw upload
 * (`rawBodyTypes`: the handler streams those bytes itself). An operation without a `body` schema is checked
 * against `ZNoBody`.
 */
export function readsJsonBody(op: Pick<TOperation, "method" | "rawBodyTypes">): boolean {
  return op.method !== "GET" && !op.rawBodyTypes;
}

/**
 * Whether a body schema has no required field — it accepts `{}` — so the body may be left out: an absent or
 * empty body is then read as `{}` (`curl -X POST …/send` with the key only), and the OpenAPI document says
 * `requestBody.required: false`. One rule for both.
 */
export function bodyIsOptional(schema: z.ZodType): boolean {
  return schema.safeParse({}).success;
}

/**
 * The body's bytes parsed as the operation's JSON body: 400 when they are not JSON, 422 by dotted path when the
 * schema refuses them. Without a `body` schema the answer is undefined once the bytes are checked to be nothing
 * or `{}`.
 */
export function parseBody(op: Pick<TOperation, "body">, bytes: Uint8Array): unknown {
  const schema = op.body ?? ZNoBody;
  const value = bytes.length === 0 && bodyIsOptional(schema) ? {} : parseJsonBody(bytes);
  const body: unknown = parseOrThrow(schema, value, "body");
  return op.body ? body : undefined;
}

/**
 * Reads a request body with a byte cap (413, with `tooLarge` when given, as soon as the declared length or the
 * bytes read pass it, without reading the rest). The body is read once: the bytes are what an
 * Idempotency-Key's request hash covers, and then what `parseJsonBody` parses.
 */
export async function readBodyBytes(req: Request, limitBytes: number, tooLarge?: string): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limitBytes) throw errors.payloadTooLarge(tooLarge);
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(req.body, limitBytes);
  } catch {
    // The body stream failed: the client went away before sending it all (ECONNRESET "aborted"). Its fault, not
    // ours, and nothing was done: a 400 (which it will likely never read), not a 500.
    throw errors.badRequest(BODY_CUT_OFF);
  }
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
