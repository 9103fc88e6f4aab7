/**
 * An error and the errors it wraps, outermost first (`cause`, as drizzle wraps a driver's error and a stream its
 * source's), at most `depth` of them: for checks that look for one kind of error wherever it sits in the chain.
 */
export function* errorChain(err: unknown, depth = 5): Generator<object> {
  for (let e: unknown = err, i = 0; typeof e === "object" && e !== null && i < depth; e = (e as { cause?: unknown }).cause, i++) yield e;
}
