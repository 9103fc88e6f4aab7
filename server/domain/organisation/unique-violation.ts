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

/**
 * The unique index a 23505 names (PGlite's `constraint`, postgres.js's `constraint_name`), for a table with
 * more than one (a workspace's slug and its name); null for any other error.
 */
export function violatedUniqueIndex(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== "object" || (e as { code?: unknown }).code !== "23505") continue;
    const { constraint, constraint_name } = e as { constraint?: unknown; constraint_name?: unknown };
    const named = typeof constraint === "string" ? constraint : typeof constraint_name === "string" ? constraint_name : null;
    return named ?? /unique constraint "([^"]+)"/.exec(String((e as { message?: unknown }).message))?.[1] ?? null;
  }
  return null;
}
