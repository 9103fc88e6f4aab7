/**
 * A private temporary copy of a body, written while the body streams on to storage, so the inspector (a child
 * process) can read the file without the server holding it: each chunk is written (and awaited — that is the
 * backpressure) before it is passed on, so once the consumer has read the body to its end, the file is whole.
 *
 * The file lives in its own `mkdtemp` directory under `os.tmpdir()` (mode 0600 inside a 0700 directory,
 * `temp-dirs.ts`); `remove()` deletes the directory whatever happened and may be called any number of times.
 * What a killed process leaves behind is swept at the next start (`sweep-temp-dirs.ts`).
 */
import { open, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { TFileBody } from "@/server/storage/file-store";
import { toAsyncIterable } from "@/server/storage/meter-body";
import { makeTempDir } from "./temp-dirs";

export type TTempCopy = {
  readonly path: string;
  /** The body's chunks, unchanged, each written to `path` before it is yielded. */
  tee(body: TFileBody): AsyncGenerator<Uint8Array>;
  remove(): Promise<void>;
};

export async function createTempCopy(): Promise<TTempCopy> {
  const dir = await makeTempDir("upload");
  const file = path.join(dir, "body");
  return {
    path: file,
    async *tee(body) {
      let handle: FileHandle | undefined = await open(file, "wx", 0o600);
      try {
        for await (const chunk of toAsyncIterable(body)) {
          await handle.write(chunk);
          yield chunk;
        }
        await handle.close();
        handle = undefined;
      } finally {
        // The consumer stopped early (a limit passed) or the body failed: close, the caller removes.
        await handle?.close().catch(() => undefined);
      }
    },
    async remove() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
