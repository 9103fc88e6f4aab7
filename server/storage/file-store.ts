/**
 * File storage behind one interface. Two backends keep files: chunked in the database (the default: no extra
 * component, shared by every replica) and an S3-compatible bucket. Both stream: neither ever holds a whole
 * file in memory, and both pass the same contract tests (`file-store-contract.ts`).
 */
import type { Readable } from "node:stream";
import type { Db } from "@/server/db/client";
import { AppError } from "@/server/lib/errors";

/** Any byte stream a caller has: a Request's body (web stream), a Node stream, or an async generator. */
export type TFileBody = ReadableStream<Uint8Array> | Readable | AsyncIterable<Uint8Array>;

export type TPutOptions = {
  /** The length the sender declared; a body longer or shorter than it is refused and nothing is kept. */
  size?: number;
  /** A body longer than this is refused as soon as it passes the limit, and nothing is kept. */
  maxBytes?: number;
  /** Default `application/octet-stream`. */
  contentType?: string;
};

export type TStoredFile = {
  key: string;
  size: number;
  /** Lowercase hex SHA-256 of the bytes, computed while they streamed in. */
  sha256: string;
  contentType: string;
  createdAt: Date;
};

/**
 * A stored file named but not opened, for an answer that may not need its bytes: `store.stat(key)` reads its
 * details alone (S3: a HEAD), `store.get(key)` opens it (S3: a GET).
 */
export type TFileRef = { store: TFileStore; key: string };

/** A file as `list` names it. */
export type TListedFile = { key: string; size: number; createdAt: Date };

export type TListOptions = {
  /** Start just after this key (the `next` of the previous page). */
  after?: string | null;
  /** Files per page at most (default 500). */
  limit?: number;
};

export type TFileStore = {
  readonly kind: "database" | "s3";
  /**
   * Streams `body` into storage under `key`, replacing any file there only once every byte is safely kept.
   * Throws `FileTooLargeError`, `FileSizeMismatchError` or the body's own error; a failed put leaves nothing.
   */
  put(key: string, body: TFileBody, options?: TPutOptions): Promise<{ size: number; sha256: string }>;
  /** The file's details and a stream of its bytes; throws `StoredFileNotFoundError` when absent. */
  get(key: string): Promise<TStoredFile & { body: Readable }>;
  /** The file's details, or null when absent. */
  stat(key: string): Promise<TStoredFile | null>;
  /** Removes the file; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /**
   * One page of the files whose key starts with `prefix` and that were stored before `olderThan`, in key
   * order, starting after `options.after`. `next` continues the listing (a page may be short, even empty,
   * when younger files were passed over); null when it is done. Staging areas are never listed.
   */
  list(prefix: string, olderThan: Date, options?: TListOptions): Promise<{ files: TListedFile[]; next: string | null }>;
  /**
   * Removes what puts that never finished left behind — a process killed mid-upload cannot clean up after
   * itself — if they were started before `before` (so uploads still running are left alone): the database
   * backend's chunks that no file names, S3's staging objects and incomplete multipart uploads. Finished files
   * are never touched. Returns how many pieces were removed.
   */
  reclaimUnfinished(before: Date): Promise<number>;
  /**
   * The same store, doing its database work (if any) on `db`: a job that calls the store from inside its
   * transaction passes the transaction, since on PGlite (one connection) a query outside it would wait for
   * it for ever. The S3 backend does no database work and returns itself.
   */
  within(db: Db): TFileStore;
};

/** Subclasses of AppError so an HTTP layer maps them without a table of its own, and callers can `instanceof`. */
export class StoredFileNotFoundError extends AppError {
  override name = "StoredFileNotFoundError";
  constructor(readonly key: string) {
    super("NOT_FOUND", "File not found");
  }
}

export class FileTooLargeError extends AppError {
  override name = "FileTooLargeError";
  constructor(readonly limit: number) {
    super("PAYLOAD_TOO_LARGE", `File exceeds ${limit} bytes`);
  }
}

export class FileSizeMismatchError extends AppError {
  override name = "FileSizeMismatchError";
  constructor(
    readonly declared: number,
    readonly received: number,
  ) {
    super("UNPROCESSABLE", `File is ${received} bytes but ${declared} were declared`);
  }
}

export class InvalidFileKeyError extends AppError {
  override name = "InvalidFileKeyError";
  constructor() {
    super("BAD_REQUEST", "Invalid file key");
  }
}

/**
 * Keys are made by our code (e.g. `documents/doc_…`), never by a client; the check keeps a bug from writing
 * outside a prefix or producing a key that S3 and the database would treat differently.
 */
const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function assertFileKey(key: string): void {
  if (key.length === 0 || key.length > 512 || !KEY_PATTERN.test(key) || key.includes("..")) {
    throw new InvalidFileKeyError();
  }
}
