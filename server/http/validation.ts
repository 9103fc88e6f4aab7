import type { z } from "zod";
import { errors, type TErrorDetails } from "./errors";

/** zod issues → `details` keyed by dotted path (`recipients.0.email`); `root` names the whole value. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], root: string): TErrorDetails {
  const details: TErrorDetails = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : root;
    (details[key] ??= []).push(issue.message);
  }
  return details;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw errors.validation(issuesToDetails(result.error.issues, root));
  return result.data;
}

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
 * Reads a JSON body with a byte cap (413 beyond it, without reading the rest) and parses it
 * (400 `Invalid JSON body` when it is not JSON).
 */
export async function readJsonBody(req: Request, limitBytes: number): Promise<unknown> {
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
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw errors.invalidJson();
  }
}
