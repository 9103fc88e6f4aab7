/** The database backend against the shared storage contract, on PGlite (and PostgreSQL when DATABASE_URL is set). */
import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { storedFileChunks, storedFiles } from "@/server/db/schema";
import { useTestDb } from "@/server/test/db";
import { newId } from "@/server/lib/ids";
import { setClock } from "@/server/lib/clock";
import { createDbFileStore } from "./create-db-file-store";
import { describeFileStoreContract, pieces, readAll, testBytes } from "./file-store-contract";

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
  // A killed process's chunks: written, never published, never deleted.
  interruptPut: async () => {
    const blobId = newId("blob");
    await t.db.insert(storedFileChunks).values([0, 1, 2].map((index) => ({ blobId, index, data: testBytes(CHUNK, index + 1) })));
  },
});

describe("database backend", () => {
  it("writes ceil(size / chunk) chunks, none larger than the chunk size", async () => {
    await store.put("docs/x", pieces(testBytes(CHUNK * 3 + 1), 5_000));
    const sizes = await t.db.select({ n: sql<number>`octet_length(${storedFileChunks.data})` }).from(storedFileChunks);
    expect(sizes.map((s) => Number(s.n)).sort((a, b) => b - a)).toEqual([CHUNK, CHUNK, CHUNK, 1]);
  });

  it("writes each chunk's bytes and time exactly (binary COPY), also inside a transaction (within)", async () => {
    const at = new Date("2026-11-25T19:07:31.123Z");
    setClock(() => at);
    try {
      const bytes = testBytes(CHUNK + 5);
      // Every byte value, and the bytes COPY's text format would escape (\\, tab, newline).
      bytes.set([0, 9, 10, 13, 92, 255], 100);
      await store.put("docs/exact", pieces(bytes, 3_000));
      await t.db.transaction((tx) => store.within(tx).put("docs/in-tx", pieces(testBytes(7, 3))));
      const chunks = await t.db
        .select({
          hex: sql<string>`encode(${storedFileChunks.data}, 'hex')`,
          at: sql<string>`to_char(${storedFileChunks.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
        })
        .from(storedFileChunks)
        .orderBy(sql`octet_length(${storedFileChunks.data}) desc`, storedFileChunks.index);
      expect(chunks.map((c) => c.at)).toEqual(Array(3).fill("2026-11-25T19:07:31.123000"));
      expect(Buffer.from(chunks[0]!.hex + chunks[2]!.hex, "hex").equals(Buffer.from(bytes))).toBe(true);
      expect(chunks[1]!.hex).toBe(Buffer.from(testBytes(7, 3)).toString("hex"));
    } finally {
      setClock(undefined);
    }
  });

  it("reads chunks back by binary COPY with every byte exact, batch after batch on one connection, also inside a transaction", async () => {
    // 9 chunks: three read batches, each filling the COPY stream's buffer (postgres.js once left such a connection paused).
    const bytes = testBytes(CHUNK * 8 + 3, 11);
    bytes.set([0, 9, 10, 13, 92, 255, 0xff, 0xff], CHUNK - 4);
    await store.put("docs/binary", pieces(bytes, 7_000));
    for (let i = 0; i < 3; i++) expect((await readAll((await store.get("docs/binary")).body)).equals(bytes)).toBe(true);
    const inTx = await t.db.transaction(async (tx) => readAll((await store.within(tx).get("docs/binary")).body));
    expect(inTx.equals(bytes)).toBe(true);
    expect(await rows()).toEqual({ files: 1, chunks: 9 });
  });

  it("follows the process database (getDb) when none is given", async () => {
    const fromProcess = createDbFileStore();
    await fromProcess.put("docs/p", pieces(testBytes(10)));
    expect(await rows()).toEqual({ files: 1, chunks: 1 });
  });

  it("reclaims the chunks of an upload whose process died, never those of one still adding chunks", async () => {
    await store.put("docs/kept", pieces(testBytes(CHUNK + 1)));
    const old = new Date(Date.now() - 3_600_000);
    await t.db.insert(storedFileChunks).values({ blobId: "blob_dead", index: 0, data: testBytes(3), createdAt: old });
    await t.db.insert(storedFileChunks).values({ blobId: "blob_dead", index: 1, data: testBytes(3), createdAt: old });
    // Began before the cut-off, but its newest chunk is after it: an upload still running.
    await t.db.insert(storedFileChunks).values({ blobId: "blob_running", index: 0, data: testBytes(3), createdAt: old });
    await t.db.insert(storedFileChunks).values({ blobId: "blob_running", index: 1, data: testBytes(3) });
    expect(await store.reclaimUnfinished(new Date(Date.now() - 60_000))).toBe(2);
    expect(await rows()).toEqual({ files: 1, chunks: 4 });
  });

  it("does its database work on the transaction it is given (within), so a job may call it inside one", async () => {
    await store.put("docs/w", pieces(testBytes(10)));
    const future = new Date(Date.now() + 60_000);
    // On PGlite, a query outside an open transaction waits for it: without `within` this would never finish.
    const listed = await t.db.transaction(async (tx) => {
      const scoped = store.within(tx);
      const page = await scoped.list("docs/", future);
      await scoped.delete("docs/w");
      expect(await scoped.stat("docs/w")).toBeNull();
      await scoped.reclaimUnfinished(future);
      return page.files.map((f) => f.key);
    });
    expect(listed).toEqual(["docs/w"]);
    expect(await rows()).toEqual({ files: 0, chunks: 0 });
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
