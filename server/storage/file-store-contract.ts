/**
 * The storage contract: one suite that every backend's test file runs against its own store. What a caller
 * (the upload route, the PDF pipeline) relies on is written here once, so the backends cannot drift apart.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FileSizeMismatchError, FileTooLargeError, InvalidFileKeyError, StoredFileNotFoundError, type TFileStore } from "./file-store";

export type TContractTarget = {
  store: () => TFileStore;
  /** Bytes over which the backend must split a file (more than one chunk or part). */
  multiChunkBytes: number;
  /** Everything the backend keeps, staging included: after a failed put this is what it was before. */
  leftovers: () => Promise<number>;
  /** Leaves what a put whose process was killed leaves (chunks no file names; staging objects, multipart parts). */
  interruptPut: () => Promise<void>;
};

/** Deterministic, incompressible-looking bytes, so a shifted or repeated chunk changes the hash. */
export function testBytes(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Yields `data` in pieces of an awkward size (never aligned with a chunk), optionally failing after `failAfter`. */
export async function* pieces(data: Uint8Array, pieceBytes = 65_537, failAfter?: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < data.length; offset += pieceBytes) {
    if (failAfter !== undefined && offset >= failAfter) throw new Error("client went away");
    yield data.subarray(offset, offset + pieceBytes);
  }
  if (failAfter !== undefined) throw new Error("client went away");
}

export async function readAll(body: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

export function describeFileStoreContract(name: string, target: TContractTarget): void {
  describe(`${name}: the file store contract`, () => {
    it("round-trips bytes, size, SHA-256 and content type", async () => {
      const store = target.store();
      const data = testBytes(100_003);
      const put = await store.put("docs/a.pdf", pieces(data), { contentType: "application/pdf", size: data.length });
      expect(put).toEqual({ size: data.length, sha256: sha256(data) });

      const got = await store.get("docs/a.pdf");
      expect(got).toMatchObject({ key: "docs/a.pdf", size: data.length, sha256: sha256(data), contentType: "application/pdf" });
      expect((await readAll(got.body)).equals(data)).toBe(true);
      expect(await store.stat("docs/a.pdf")).toMatchObject({ size: data.length, sha256: sha256(data) });
    });

    it("keeps an empty file", async () => {
      const store = target.store();
      const put = await store.put("docs/empty", pieces(Buffer.alloc(0)));
      expect(put).toEqual({ size: 0, sha256: sha256(Buffer.alloc(0)) });
      const got = await store.get("docs/empty");
      expect(got).toMatchObject({ size: 0, contentType: "application/octet-stream" });
      expect((await readAll(got.body)).length).toBe(0);
    });

    it("splits a large file into chunks and reads it back in order", async () => {
      const store = target.store();
      const data = testBytes(target.multiChunkBytes * 2 + 12_345, 7);
      const put = await store.put("docs/big.bin", pieces(data, 100_000));
      expect(put.sha256).toBe(sha256(data));
      const got = await store.get("docs/big.bin");
      const back = await readAll(got.body);
      expect(back.length).toBe(data.length);
      expect(sha256(back)).toBe(sha256(data));
    });

    it("accepts a web ReadableStream body (a Request's body)", async () => {
      const store = target.store();
      const data = testBytes(70_000, 3);
      const body = new Response(new Uint8Array(data)).body!;
      expect((await store.put("docs/web", body)).sha256).toBe(sha256(data));
      expect((await readAll((await store.get("docs/web")).body)).equals(data)).toBe(true);
    });

    it("answers not found for a missing key, and stat null", async () => {
      const store = target.store();
      await expect(store.get("docs/none")).rejects.toBeInstanceOf(StoredFileNotFoundError);
      await expect(store.get("docs/none")).rejects.toMatchObject({ status: 404, message: "File not found" });
      expect(await store.stat("docs/none")).toBeNull();
    });

    it("deletes idempotently", async () => {
      const store = target.store();
      await store.put("docs/d", pieces(testBytes(10)));
      await store.delete("docs/d");
      await store.delete("docs/d");
      await store.delete("docs/never");
      await expect(store.get("docs/d")).rejects.toBeInstanceOf(StoredFileNotFoundError);
      expect(await target.leftovers()).toBe(0);
    });

    it("replaces a file, and keeps nothing of the old version", async () => {
      const store = target.store();
      await store.put("docs/r", pieces(testBytes(target.multiChunkBytes + 1, 1)));
      const second = testBytes(5_000, 2);
      await store.put("docs/r", pieces(second), { contentType: "text/plain" });
      const got = await store.get("docs/r");
      expect(got).toMatchObject({ size: 5_000, contentType: "text/plain", sha256: sha256(second) });
      expect((await readAll(got.body)).equals(second)).toBe(true);
      await store.delete("docs/r");
      expect(await target.leftovers()).toBe(0);
    });

    it("keeps nothing when the body fails midway, and the previous version survives", async () => {
      const store = target.store();
      const before = testBytes(1_000, 9);
      await store.put("docs/f", pieces(before));
      const baseline = await target.leftovers();

      const data = testBytes(target.multiChunkBytes * 2, 4);
      await expect(store.put("docs/f", pieces(data, 65_537, target.multiChunkBytes + 10))).rejects.toThrow("client went away");
      await expect(store.put("docs/g", pieces(data, 65_537, 1))).rejects.toThrow("client went away");

      expect(await target.leftovers()).toBe(baseline);
      expect(await store.stat("docs/g")).toBeNull();
      expect((await readAll((await store.get("docs/f")).body)).equals(before)).toBe(true);
    });

    it("refuses a body over maxBytes and keeps nothing", async () => {
      const store = target.store();
      // The limit sits past the first chunk, so the refusal has to undo writes already made.
      const limit = target.multiChunkBytes * 2;
      const data = testBytes(limit + 50_000, 5);
      const err = await store.put("docs/m", pieces(data, 8_191), { maxBytes: limit }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FileTooLargeError);
      expect(err).toMatchObject({ status: 413 });
      expect(await store.stat("docs/m")).toBeNull();
      expect(await target.leftovers()).toBe(0);
      // Exactly at the limit is allowed.
      const exact = data.subarray(0, limit);
      expect((await store.put("docs/m", pieces(exact), { maxBytes: exact.length })).size).toBe(exact.length);
    });

    it("refuses a body that differs from the declared size and keeps nothing", async () => {
      const store = target.store();
      const data = testBytes(20_000, 6);
      await expect(store.put("docs/s", pieces(data), { size: 19_999 })).rejects.toBeInstanceOf(FileTooLargeError);
      const short = await store.put("docs/s", pieces(data), { size: 20_001 }).catch((e: unknown) => e);
      expect(short).toBeInstanceOf(FileSizeMismatchError);
      expect(short).toMatchObject({ status: 422 });
      expect(await store.stat("docs/s")).toBeNull();
      expect(await target.leftovers()).toBe(0);
    });

    it("stores concurrent puts of different keys without mixing them", async () => {
      const store = target.store();
      const files = Array.from({ length: 5 }, (_, i) => testBytes(150_000 + i * 977, 100 + i));
      const results = await Promise.all(files.map((data, i) => store.put(`docs/c${i}`, pieces(data, 32_768))));
      results.forEach((r, i) => expect(r.sha256).toBe(sha256(files[i]!)));
      for (const [i, data] of files.entries()) {
        expect((await readAll((await store.get(`docs/c${i}`)).body)).equals(data)).toBe(true);
      }
    });

    it("lists the files under a prefix that were stored before a time, in key order, page by page", async () => {
      const store = target.store();
      const keys = ["docs/b", "docs/a", "docs/c/1", "docsx/d", "doc/e", "other/f"];
      for (const [i, key] of keys.entries()) await store.put(key, pieces(testBytes(100 + i, i + 1)));
      const future = new Date(Date.now() + 60_000);
      const all = async (prefix: string, olderThan: Date, limit?: number) => {
        const found: [string, number][] = [];
        let pages = 0;
        for (let after: string | null = null; ;) {
          const page = await store.list(prefix, olderThan, { after, limit });
          pages++;
          found.push(...page.files.map((f): [string, number] => [f.key, f.size]));
          for (const f of page.files) expect(f.createdAt.getTime()).toBeLessThan(olderThan.getTime());
          if (page.next === null) break;
          after = page.next;
        }
        return { found, pages };
      };
      expect(await all("docs/", future)).toEqual({
        found: [
          ["docs/a", 101],
          ["docs/b", 100],
          ["docs/c/1", 102],
        ],
        pages: 1,
      });
      const paged = await all("docs/", future, 2);
      expect(paged.found.map(([key]) => key)).toEqual(["docs/a", "docs/b", "docs/c/1"]);
      expect(paged.pages).toBeGreaterThanOrEqual(2);
      expect((await all("", future, 4)).found.map(([key]) => key).sort()).toEqual([...keys].sort());
      // Stored after the cut-off: not listed.
      expect(await all("docs/", new Date(Date.now() - 60_000))).toEqual({ found: [], pages: 1 });
    });

    it("reclaims what a killed put left once it is older than the cut-off, and never a finished file", async () => {
      const store = target.store();
      const kept = testBytes(target.multiChunkBytes + 5, 11);
      await store.put("docs/kept", pieces(kept));
      const baseline = await target.leftovers();
      await target.interruptPut();
      const interrupted = await target.leftovers();
      expect(interrupted).toBeGreaterThan(baseline);
      // What a killed put leaves is never listed as a file.
      expect((await store.list("", new Date(Date.now() + 60_000))).files.map((f) => f.key)).toEqual(["docs/kept"]);
      // Younger than the cut-off: it may be a put still running, so it stays.
      expect(await store.reclaimUnfinished(new Date(Date.now() - 3_600_000))).toBe(0);
      expect(await target.leftovers()).toBe(interrupted);
      expect(await store.reclaimUnfinished(new Date(Date.now() + 3_600_000))).toBeGreaterThan(0);
      expect(await target.leftovers()).toBe(baseline);
      expect((await readAll((await store.get("docs/kept")).body)).equals(kept)).toBe(true);
      expect(await store.reclaimUnfinished(new Date(Date.now() + 3_600_000))).toBe(0);
    });

    it("refuses keys that could escape a prefix or differ between backends", async () => {
      const store = target.store();
      for (const key of ["", "/abs", "a/../b", "a//b", ".uploads/x", "a b", "a\u0000b", "x".repeat(513)]) {
        await expect(store.put(key, pieces(testBytes(1)))).rejects.toBeInstanceOf(InvalidFileKeyError);
        await expect(store.get(key)).rejects.toBeInstanceOf(InvalidFileKeyError);
      }
    });
  });
}
