import { Readable } from "node:stream";
import { RawResponse } from "./route";

/**
 * A stored PDF as the answer, streamed from the file store (never buffered). Private and not stored by any
 * cache: the bytes belong to one workspace and the URL alone does not say whose.
 */
export function pdfResponse(
  file: { name: string; size: number; sha256: string; body: Readable },
  opts: { disposition?: "inline" | "attachment" } = {},
): RawResponse {
  const body = Readable.toWeb(file.body) as ReadableStream<Uint8Array>;
  return new RawResponse(
    new Response(body, {
      status: 200,
      headers: {
        "content-type": "application/pdf",
        "content-length": String(file.size),
        "content-disposition": `${opts.disposition ?? "inline"}; filename*=UTF-8''${encodeURIComponent(file.name.endsWith(".pdf") ? file.name : `${file.name}.pdf`)}`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        etag: `"${file.sha256}"`,
      },
    }),
  );
}

/** A zip streamed as it is built (never buffered); Content-Length when its size is known in advance. */
export function zipResponse(file: { name: string; size: number | null; body: Readable }): RawResponse {
  const body = Readable.toWeb(file.body) as ReadableStream<Uint8Array>;
  return new RawResponse(
    new Response(body, {
      status: 200,
      headers: {
        "content-type": "application/zip",
        ...(file.size === null ? {} : { "content-length": String(file.size) }),
        "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    }),
  );
}
