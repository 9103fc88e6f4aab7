/**
 * The upload paths' one way to keep and check a file: the body streams into the file store and, in the same
 * pass, into a temporary copy; the copy is inspected in a child process (`inspectInChild`) and removed. The
 * server process never holds the file (bench/uploads.ts measures it).
 *
 * Errors: the store's own (`FileTooLargeError`, `FileSizeMismatchError`, the body's) — nothing is kept; the
 * inspector's refusals (`AppError` 413/422) — the stored file is deleted. The temporary copy is removed in
 * every case. The store's SHA-256 (computed while storing) and the inspector's (of the copy) must agree.
 */
import type { TFileBody, TFileStore, TPutOptions } from "@/server/storage/file-store";
import { inspectInChild, type TChildInspectOptions } from "./inspect-in-child";
import type { TInspectedFile } from "./inspect-file";
import { createTempCopy } from "./temp-copy";

export async function storeAndInspect(
  store: TFileStore,
  key: string,
  body: TFileBody,
  options: TPutOptions & { inspect?: TChildInspectOptions } = {},
): Promise<TInspectedFile> {
  const { inspect, ...putOptions } = options;
  const copy = await createTempCopy();
  try {
    const stored = await store.put(key, copy.tee(body), putOptions);
    try {
      const inspected = await inspectInChild(copy.path, { maxBytes: putOptions.maxBytes, ...inspect });
      if (inspected.sha256 !== stored.sha256 || inspected.size !== stored.size) {
        throw new Error(`upload ${key}: the temporary copy differs from the stored file`);
      }
      return inspected;
    } catch (err) {
      await store.delete(key).catch(() => undefined);
      throw err;
    }
  } finally {
    await copy.remove();
  }
}
