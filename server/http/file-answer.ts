/**
 * A stored file as a route's answer (the PDFs, a signature image), opened only to be sent. A GET or HEAD with
 * `If-None-Match` reads the file's details alone first — S3 a HEAD, the database its row — and answers 304 when
 * one of the tags matches its ETag (./not-modified.ts), so an unchanged file is never opened: on S3 no GET.
 * Otherwise the file is opened (S3: a GET) and streamed with a 200. A missing file is 404 either way
 * (StoredFileNotFoundError, thrown before any byte goes out). The route wrapper (./route.ts) calls it after the
 * door, the gates and the handler, so a 304 tells nothing a 200 would not have told the same caller.
 */
import { Readable } from "node:stream";
import { StoredFileNotFoundError, type TFileRef } from "@/server/storage/file-store";
import { ifNoneMatchMatches, notModified } from "./not-modified";

/** The details a file answer's headers are made of (the same from a stat as from an opened file). */
type TFileDetails = { size: number; sha256: string };

/** Returned by a handler whose answer is a stored file: the file, and the headers of its 200 (an ETag among them). */
export class FileAnswer {
  constructor(
    readonly file: TFileRef,
    readonly headers: (details: TFileDetails) => Record<string, string>,
  ) {}
}

export async function answerFile(req: Request, answer: FileAnswer): Promise<Response> {
  const { store, key } = answer.file;
  const condition = req.method === "GET" || req.method === "HEAD" ? req.headers.get("if-none-match") : null;
  if (condition !== null) {
    const details = await store.stat(key);
    if (!details) throw new StoredFileNotFoundError(key);
    const headers = new Headers(answer.headers(details));
    const etag = headers.get("etag");
    if (etag !== null && ifNoneMatchMatches(condition, etag)) return notModified(headers);
  }
  const opened = await store.get(key);
  return new Response(Readable.toWeb(opened.body) as ReadableStream<Uint8Array>, { status: 200, headers: answer.headers(opened) });
}
