/**
 * What makes two requests "the same" for an Idempotency-Key: method, path with its parameters and query
 * string, and the raw body bytes exactly as received (not the parsed JSON: `{"a":1}` and `{ "a": 1 }` differ,
 * which errs on the side of refusing rather than replaying an answer to another request).
 */
import { createHash } from "node:crypto";

export function hashRequest(method: string, url: string, body: Uint8Array | undefined): string {
  const { pathname, search } = new URL(url);
  // Method and URL never contain a newline, so the separator makes the concatenation unambiguous.
  const hash = createHash("sha256").update(`${method}\n${pathname}${search}\n`);
  if (body) hash.update(body);
  return hash.digest("hex");
}
