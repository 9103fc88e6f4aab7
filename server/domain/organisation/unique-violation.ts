import { errorWithSqlState } from "@/server/lib/error-chain";

/** The unique-constraint violation (SQLSTATE 23505) in `err` or an error it wraps, whichever driver raised it. */
const uniqueViolationIn = (err: unknown) => errorWithSqlState(err, "23505");

/**
 * Whether a database error is a unique-constraint violation (SQLSTATE 23505), whichever driver raised it:
 * drizzle wraps driver errors, so the code may sit on the error or on its cause. Domain functions check
 * uniqueness first for a friendly message and use this for the race two concurrent requests can still lose.
 */
export function isUniqueViolation(err: unknown): boolean {
  return uniqueViolationIn(err) !== undefined;
}

/**
 * The unique index a 23505 names (PGlite's `constraint`, postgres.js's `constraint_name`, else its message), for
 * a table with more than one (a workspace's slug and its name); null for any other error, or one naming none.
 */
export function violatedUniqueIndex(err: unknown): string | null {
  const e = uniqueViolationIn(err) as { constraint?: unknown; constraint_name?: unknown; message?: unknown } | undefined;
  if (!e) return null;
  if (typeof e.constraint === "string") return e.constraint;
  if (typeof e.constraint_name === "string") return e.constraint_name;
  return /unique constraint "([^"]+)"/.exec(String(e.message))?.[1] ?? null;
}
