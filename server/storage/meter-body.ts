import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { FileSizeMismatchError, FileTooLargeError, type TFileBody, type TPutOptions } from "./file-store";

export type TMeteredBody = {
  /** The body's bytes, passed through as they arrive; throws when a limit is passed or the size is short. */
  chunks: AsyncIterable<Uint8Array>;
  /** Size and SHA-256 of what went through; meaningful once `chunks` has been read to its end. */
  result(): { size: number; sha256: string };
};

/** Any file body as an async iterable of byte chunks. */
export function toAsyncIterable(body: TFileBody): AsyncIterable<Uint8Array> {
  // A web stream is async-iterable on Node 20 too, but its TypeScript type (lib.dom) does not say so.
  if (typeof (body as ReadableStream<Uint8Array>).getReader === "function") {
    return Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>);
  }
  return body as AsyncIterable<Uint8Array>;
}

/**
 * Counts and hashes a body while it streams, and enforces `maxBytes` and the declared `size` as early as
 * possible: the error is raised on the first byte past a limit, so a huge upload is not read to its end.
 */
export function meterBody(body: TFileBody, options: Pick<TPutOptions, "size" | "maxBytes"> = {}): TMeteredBody {
  const { size: declared, maxBytes } = options;
  const limit = Math.min(maxBytes ?? Infinity, declared ?? Infinity);
  const hash = createHash("sha256");
  let size = 0;
  let sha256: string | undefined;

  async function* chunks(): AsyncGenerator<Uint8Array> {
    for await (const piece of toAsyncIterable(body)) {
      if (!(piece instanceof Uint8Array)) throw new TypeError("A file body must yield bytes");
      size += piece.byteLength;
      // Past the declared size is "too large" (413), like past maxBytes; short of it is a mismatch (422).
      if (size > limit) throw new FileTooLargeError(limit);
      hash.update(piece);
      yield piece;
    }
    if (declared !== undefined && size !== declared) throw new FileSizeMismatchError(declared, size);
    sha256 = hash.digest("hex");
  }

  return {
    chunks: chunks(),
    result() {
      if (sha256 === undefined) throw new Error("meterBody: the body has not been read to its end");
      return { size, sha256 };
    },
  };
}
