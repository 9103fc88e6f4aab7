/**
 * The optional `Idempotency-Key` header of a POST on /api/v1: 1–255 printable ASCII characters (space to `~`).
 * Anything else is refused (422 at `Idempotency-Key`) rather than ignored: a client that sends a key expects
 * protection, and silently acting without it would defeat the point.
 */
import { errors } from "@/server/lib/errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const VALID = /^[\x20-\x7E]{1,255}$/;

/** The key, or null when the request carries none. */
export function readIdempotencyKey(req: Request): string | null {
  const value = req.headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  if (!VALID.test(value)) throw errors.validation({ [IDEMPOTENCY_HEADER]: ["Must be 1 to 255 printable ASCII characters"] });
  return value;
}
