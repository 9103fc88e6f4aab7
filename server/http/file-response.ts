import { Readable } from "node:stream";
import type { TFileRef } from "@/server/storage/file-store";
import { FileAnswer } from "./file-answer";
import { RawResponse } from "./route";

/**
 * `Content-Disposition` with both names: `filename*` (RFC 8187, the exact UTF-8 name) for browsers, and a plain
 * ASCII `filename` for clients that read only that one (`curl -OJ`, some HTTP libraries), so they save
 * `Lease 4B - certificate.pdf` rather than the URL's last segment without an extension. The ASCII name drops
 * accents (é → e) and turns anything else outside printable ASCII, quotes and backslashes into `_`.
 */
export function contentDisposition(disposition: "inline" | "attachment", name: string): string {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A stored PDF as the answer, streamed from the file store (never buffered), or 304 without opening it
 * (./file-answer.ts). Private and not stored by any cache: the bytes belong to one workspace and the URL alone
 * does not say whose.
 */
export function pdfResponse(download: { name: string; file: TFileRef }, opts: { disposition?: "inline" | "attachment" } = {}): FileAnswer {
  const name = download.name.endsWith(".pdf") ? download.name : `${download.name}.pdf`;
  return new FileAnswer(download.file, (details) => ({
    "content-type": "application/pdf",
    "content-length": String(details.size),
    "content-disposition": contentDisposition(opts.disposition ?? "inline", name),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    etag: `"${details.sha256}"`,
  }));
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
        "content-disposition": contentDisposition("attachment", file.name),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
      },
    }),
  );
}
