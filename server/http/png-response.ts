import { Readable } from "node:stream";
import { RawResponse } from "./route";

/** A stored PNG (a signature image) streamed as the answer; private, never cached, never sniffed as anything else. */
export function pngResponse(file: { size: number; sha256: string; body: Readable }): RawResponse {
  return new RawResponse(
    new Response(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: {
        "content-type": "image/png",
        "content-length": String(file.size),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        etag: `"${file.sha256}"`,
      },
    }),
  );
}
