/**
 * File storage behind one interface. Two backends keep files: chunked in the database (the default: no extra
 * component, shared by every replica) and an S3-compatible bucket. Both stream: neither ever holds a whole
 * file in memory, and both pass the same contract tests (`file-store.contract.ts`).
 */
import type { Readable } from "node:stream";
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
