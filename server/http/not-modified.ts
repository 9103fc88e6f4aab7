/**
 * `If-None-Match` on a file answer that carries an ETag (the stored PDFs and signature images: their SHA-256 in
 * quotes; RFC 9110 §13.1.2): when one of the client's entity-tags matches, or it sent `*`, the answer is 304 Not
 * Modified with no body — the ETag and the caching headers the 200 would have carried (§15.4.5), nothing about
 * the body. ./file-answer.ts asks before it opens the file. An answer without an ETag (the zip, built as it
 * streams) is a RawResponse and ignores the header.
 */

/** Headers a 304 keeps from the 200 it replaces (RFC 9110 §15.4.5); the wrapper adds its own (X-Request-Id…). */
const KEPT = ["etag", "cache-control", "content-location", "date", "expires", "vary"];

/**
 * Whether an If-None-Match value matches `etag`: `*` matches any current representation; otherwise a list of
 * entity-tags (`"a", W/"b"`), compared by the WEAK comparison that §13.1.2 prescribes for this field (the opaque
 * tags are equal, `W/` or not; §8.8.3.2). A value that holds no entity-tag matches nothing.
 */
export function ifNoneMatchMatches(value: string, etag: string): boolean {
  if (value.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const target = opaque(etag);
  return (value.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === target);
}

/** The 304 that replaces a 200 with these headers. */
export function notModified(headersOf200: Headers): Response {
  const headers = new Headers();
  for (const name of KEPT) {
    const value = headersOf200.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}
