/** The database backend against the shared storage contract, on PGlite (and PostgreSQL when DATABASE_URL is set). */
import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { storedFileChunks, storedFiles } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { createDbFileStore } from "./create-db-file-store";
import { describeFileStoreContract, pieces, testBytes } from "./file-store-contract";

const t = useTestDb();
// Small chunks make the multi-chunk paths cheap to exercise; the default (256 KB) is used by the benchmark.
const CHUNK = 16 * 1024;
const store = createDbFileStore({ chunkBytes: CHUNK });

async function rows(): Promise<{ files: number; chunks: number }> {
  const [files] = await t.db.select({ n: count() }).from(storedFiles);
  const [chunks] = await t.db.select({ n: count() }).from(storedFileChunks);
  return { files: files!.n, chunks: chunks!.n };
}

describeFileStoreContract("database", {
  store: () => store,
  multiChunkBytes: CHUNK,
  leftovers: async () => {
    const r = await rows();
    return r.files + r.chunks;
  },
});

describe("database backend", () => {
  it("writes ceil(size / chunk) chunks, none larger than the chunk size", async () => {
    await store.put("docs/x", pieces(testBytes(CHUNK * 3 + 1), 5_000));
    const sizes = await t.db.select({ n: sql<number>`octet_length(${storedFileChunks.data})` }).from(storedFileChunks);
    expect(sizes.map((s) => Number(s.n)).sort((a, b) => b - a)).toEqual([CHUNK, CHUNK, CHUNK, 1]);
  });

  it("follows the process database (getDb) when none is given", async () => {
    const fromProcess = createDbFileStore();
    await fromProcess.put("docs/p", pieces(testBytes(10)));
    expect(await rows()).toEqual({ files: 1, chunks: 1 });
  });

  it("sweeps the chunks of an upload whose process died, and only those", async () => {
    await store.put("docs/kept", pieces(testBytes(CHUNK + 1)));
    const old = new Date(Date.now() - 3_600_000);
    await t.db.insert(storedFileChunks).values({ blobId: "blob_dead", index: 0, data: testBytes(3), createdAt: old });
    await t.db.insert(storedFileChunks).values({ blobId: "blob_running", index: 0, data: testBytes(3) });
    expect(await store.deleteOrphanChunks(new Date(Date.now() - 60_000))).toBe(1);
    expect(await rows()).toEqual({ files: 1, chunks: 3 });
  });

  it("errors the read stream when a concurrent delete drops the blob mid-read", async () => {
    await store.put("docs/gone", pieces(testBytes(CHUNK * 8)));
    const got = await store.get("docs/gone");
    await store.delete("docs/gone");
    const read = (async () => {
      for await (const chunk of got.body) void chunk;
    })();
    await expect(read).rejects.toThrow("changed while being read");
  });
});
