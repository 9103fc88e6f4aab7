import { errorChain } from "@/server/lib/error-chain";

/**
 * A request body whose failures are known to be the client's: the stream it yields fails with ClientBodyError
 * when the body itself fails (the client went away mid-body: ECONNRESET "aborted"), so a caller can tell that
 * from a failure of its own (the file store, the database) and answer 400 instead of 500.
 */
export class ClientBodyError extends Error {
  constructor(cause: unknown) {
    super("The request body failed before its end", { cause });
  }
}

export const BODY_CUT_OFF = "The request body was cut off before it arrived in full";

export function watchClientBody(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (err) {
        throw new ClientBodyError(err);
      }
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** Whether `err`, or an error it wraps (`cause`), is a ClientBodyError. */
export function isClientBodyError(err: unknown): boolean {
  for (const e of errorChain(err)) if (e instanceof ClientBodyError) return true;
  return false;
}
