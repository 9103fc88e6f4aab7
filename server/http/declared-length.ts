/**
 * The body length a request announces (Content-Length), or undefined when absent or not a plain non-negative
 * integer (chunked uploads): a file store then checks what arrives against its cap only.
 */
export function declaredLength(req: Request): number | undefined {
  const raw = req.headers.get("content-length");
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}
