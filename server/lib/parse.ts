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

export const NUL_MESSAGE = "Must not contain NUL characters";
export const NUL_KEY_MESSAGE = "Keys must not contain NUL characters";
export const ILL_FORMED_MESSAGE = "Must be well-formed Unicode (no unpaired UTF-16 surrogate)";
export const ILL_FORMED_KEY_MESSAGE = "Keys must be well-formed Unicode (no unpaired UTF-16 surrogate)";

/** What a string holds that the database cannot store faithfully, as the message naming it; null when nothing. */
function unstorable(text: string, messages: { nul: string; illFormed: string }): string | null {
  if (text.includes("\u0000")) return messages.nul;
  if (!text.isWellFormed()) return messages.illFormed;
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Every string (or object key) holding U+0000 or an unpaired UTF-16 surrogate (`"\ud800"`: ill-formed
 * Unicode, which JSON can carry), by dotted path. PostgreSQL's text and jsonb cannot store a NUL and the driver
 * throws on it; jsonb refuses a lone surrogate, and a text column silently stores U+FFFD instead. So either
 * reaching a query would be a 500 or a changed value; it is a 422 at the boundary instead. Iterative, so a
 * deeply nested value cannot exhaust the stack.
 */
export function nulDetails(value: unknown, root: string): TErrorDetails {
  const details: TErrorDetails = {};
  const add = (path: readonly string[], message: string) => {
    const key = path.length ? path.join(".") : root;
    const list = (details[key] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const stack: { v: unknown; path: string[] }[] = [{ v: value, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { v, path } = item;
    if (typeof v === "string") {
      const problem = unstorable(v, { nul: NUL_MESSAGE, illFormed: ILL_FORMED_MESSAGE });
      if (problem) add(path, problem);
    } else if (Array.isArray(v)) {
      v.forEach((el: unknown, i) => stack.push({ v: el, path: [...path, String(i)] }));
    } else if (isPlainObject(v)) {
      for (const [k, el] of Object.entries(v)) {
        const problem = unstorable(k, { nul: NUL_KEY_MESSAGE, illFormed: ILL_FORMED_KEY_MESSAGE });
        if (problem) add(path, problem);
        else stack.push({ v: el, path: [...path, k] });
      }
    }
  }
  return details;
}

/**
 * Validates input at a boundary (route params, query, body; domain inputs): a schema failure, or a string
 * with a NUL character or ill-formed Unicode in what the schema lets through, is a 422 with `details` by
 * dotted path.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, root: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw errors.validation(issuesToDetails(result.error.issues, root));
  const nul = nulDetails(result.data, root);
  if (Object.keys(nul).length > 0) throw errors.validation(nul);
  return result.data;
}
