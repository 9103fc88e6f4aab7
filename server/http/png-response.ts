import type { TFileRef } from "@/server/storage/file-store";
import { FileAnswer } from "./file-answer";

/**
 * A stored PNG (a signature image) as the answer, streamed, or 304 without opening it (./file-answer.ts);
 * private, never cached, never sniffed as anything else.
 */
export function pngResponse(file: TFileRef): FileAnswer {
  return new FileAnswer(file, (details) => ({
    "content-type": "image/png",
    "content-length": String(details.size),
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    etag: `"${details.sha256}"`,
  }));
}
