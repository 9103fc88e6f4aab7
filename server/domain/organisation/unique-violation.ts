/**
 * Whether a database error is a unique-constraint violation (SQLSTATE 23505), whichever driver raised it:
 * drizzle wraps driver errors, so the code may sit on the error or on its cause. Domain functions check
 * uniqueness first for a friendly message and use this for the race two concurrent requests can still lose.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e === "object" && (e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}
