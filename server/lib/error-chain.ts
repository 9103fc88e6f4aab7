/**
 * An error and the errors it wraps, outermost first (`cause`, as drizzle wraps a driver's error and a stream its
 * source's), at most `depth` of them: for checks that look for one kind of error wherever it sits in the chain.
 */
export function* errorChain(err: unknown, depth = 5): Generator<object> {
  for (let e: unknown = err, i = 0; typeof e === "object" && e !== null && i < depth; e = (e as { cause?: unknown }).cause, i++) yield e;
}

/**
 * The error in `err`'s chain that carries this SQLSTATE (`code`), whichever driver raised it (drizzle wraps the
 * driver's error, so the code may sit on the error or on its cause); undefined when none does.
 */
export function errorWithSqlState(err: unknown, code: string): object | undefined {
  for (const e of errorChain(err)) if ((e as { code?: unknown }).code === code) return e;
  return undefined;
}
