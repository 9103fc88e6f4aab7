import { Readable } from "node:stream";
import { and, asc, eq, gt, gte, lt, notInArray, sql } from "drizzle-orm";
import { getDb, type Db } from "@/server/db/client";
import { copyRowsIn, copyRowsOut } from "@/server/db/driver";
import { storedFileChunks, storedFiles } from "@/server/db/schema";
import { now } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { assertFileKey, StoredFileNotFoundError, type TFileStore, type TStoredFile } from "./file-store";
import { meterBody } from "./meter-body";

export const DEFAULT_CHUNK_BYTES = 256 * 1024;
const DEFAULT_LIST_LIMIT = 500;
/** Chunks fetched per query when reading: 1 MB at the default size, few round trips, flat memory. */
const READ_BATCH = 4;

/**
 * Chunks are written by binary COPY (`copyRowsIn`, server/db/driver/copy.ts): their bytes never become a JS string.
 * As insert parameters both drivers sent them as hex text (PGlite 0.5 even built it one byte at a time: a 25 MB
 * round trip took ~18 s, bench/storage.ts), a 512 KiB string per 256 KiB chunk that V8 freed only at its next
 * full GC: +76…+166 MB of RSS for a 200 MB upload (bench/README.md, bench:uploads, issue 26).
 * Reads come back by binary COPY too (`copyRowsOut`): a select returned each chunk as a 512 KiB hex string, and a
 * 200 MB download grew RSS by +161…+192 MB the same way.
 */
const CHUNK_COLUMNS = [storedFileChunks.blobId, storedFileChunks.index, storedFileChunks.data, storedFileChunks.createdAt];
/** The columns `chunkBatchQuery` selects, in its order. */
const BATCH_COLUMNS = [storedFileChunks.index, storedFileChunks.data];

/**
 * One read batch: the chunks `from` … `from + READ_BATCH - 1` of a blob. Bounded on both sides so that
 * whatever plan PostgreSQL picks, it reads at most READ_BATCH rows: with only `index >= from
 * … limit 4`, a table never analyzed (a fresh install) was planned as a bitmap scan and a sort that encoded every
 * remaining chunk of the file before keeping four (139 ms per batch instead of 2.3 ms, issue 26). Exported for
 * the test that runs EXPLAIN ANALYZE on exactly this query under every scan method (db-file-store-read-plan.test.ts).
 */
export function chunkBatchQuery(db: Db, blobId: string, from: number) {
  return db
    .select({ index: storedFileChunks.index, data: storedFileChunks.data })
    .from(storedFileChunks)
    .where(and(eq(storedFileChunks.blobId, blobId), gte(storedFileChunks.index, from), lt(storedFileChunks.index, from + READ_BATCH)))
    .orderBy(asc(storedFileChunks.index));
}

export type TDbFileStore = TFileStore & { within(db: Db): TDbFileStore };

/**
 * The default backend: files cut into `chunkBytes` rows of `stored_file_chunks`, named by a `stored_files` row.
 *
 * No transaction spans the upload: on PGlite (one connection) it would stall every other query for as long as
 * the client takes to send, and on PostgreSQL pin a pooled connection. Instead each chunk is inserted on its
 * own under a fresh blob id nobody can see, and a short transaction publishes the blob under the key (and drops
 * the blob it replaces). A failed upload deletes its chunks; readers never see a partial file. A process killed
 * mid-upload leaves its chunks unnamed: `reclaimUnfinished` removes a blob's chunks once no file names it and
 * even its newest chunk is older than the cut-off (an upload still running keeps adding chunks).
 */
export function createDbFileStore(options: { db?: () => Promise<Db>; chunkBytes?: number } = {}): TDbFileStore {
  const database = options.db ?? getDb;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;

  async function stat(key: string): Promise<TStoredFile | null> {
    assertFileKey(key);
    const db = await database();
    const [row] = await db
      .select({
        key: storedFiles.key,
        size: storedFiles.size,
        sha256: storedFiles.sha256,
        contentType: storedFiles.contentType,
        createdAt: storedFiles.createdAt,
      })
      .from(storedFiles)
      .where(eq(storedFiles.key, key));
    return row ?? null;
  }

  /** Serialises writers of one key across processes, so a replaced blob is always the one deleted. */
  const lockKey = (key: string) => sql`select pg_advisory_xact_lock(hashtextextended(${"stored_files:" + key}, 0))`;

  return {
    kind: "database",
    stat,

    async put(key, body, putOptions = {}) {
      assertFileKey(key);
      const db = await database();
      const blobId = newId("blob");
      const metered = meterBody(body, putOptions);
      let index = 0;
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const writeChunk = async () => {
        const data = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await copyRowsIn(db, storedFileChunks, CHUNK_COLUMNS, [[blobId, index++, data, now()]]);
      };
      try {
        for await (let piece of metered.chunks) {
          while (piece.byteLength > 0) {
            const take = piece.subarray(0, chunkBytes - pendingBytes);
            pending.push(take);
            pendingBytes += take.byteLength;
            piece = piece.subarray(take.byteLength);
            if (pendingBytes === chunkBytes) await writeChunk();
          }
        }
        if (pendingBytes > 0) await writeChunk();
        const { size, sha256 } = metered.result();
        const contentType = putOptions.contentType ?? "application/octet-stream";
        await db.transaction(async (tx) => {
          await tx.execute(lockKey(key));
          const [old] = await tx.select({ blobId: storedFiles.blobId }).from(storedFiles).where(eq(storedFiles.key, key));
          const values = { key, blobId, size, sha256, contentType, createdAt: now() };
          await tx.insert(storedFiles).values(values).onConflictDoUpdate({ target: storedFiles.key, set: values });
          if (old) await tx.delete(storedFileChunks).where(eq(storedFileChunks.blobId, old.blobId));
        });
        return { size, sha256 };
      } catch (err) {
        pending = [];
        // Best effort: if this fails too (database gone), reclaimUnfinished (the stored-file sweep) removes them later.
        await db
          .delete(storedFileChunks)
          .where(eq(storedFileChunks.blobId, blobId))
          .catch(() => undefined);
        throw err;
      }
    },

    async get(key) {
      assertFileKey(key);
      const db = await database();
      const [row] = await db.select().from(storedFiles).where(eq(storedFiles.key, key));
      if (!row) throw new StoredFileNotFoundError(key);
      const { blobId, ...file } = row;
      async function* chunks(): AsyncGenerator<Uint8Array> {
        let next = 0;
        let read = 0;
        batches: for (;;) {
          const rows = (await copyRowsOut(db, chunkBatchQuery(db, blobId, next).getSQL(), BATCH_COLUMNS)) as [number, Buffer][];
          for (const [index, data] of rows) {
            if (index !== next) break batches;
            next++;
            read += data.byteLength;
            yield data;
          }
          if (rows.length < READ_BATCH || read >= file.size) break;
        }
        // A concurrent put or delete of this key dropped the blob while it was being read.
        if (read !== file.size) throw new Error(`Stored file ${key} changed while being read`);
      }
      // Byte mode, so backpressure counts bytes: at most one batch waits in memory.
      const stream = Readable.from(chunks(), { objectMode: false, highWaterMark: chunkBytes });
      return { ...file, body: stream };
    },

    async delete(key) {
      assertFileKey(key);
      const db = await database();
      await db.transaction(async (tx) => {
        await tx.execute(lockKey(key));
        const gone = await tx.delete(storedFiles).where(eq(storedFiles.key, key)).returning({ blobId: storedFiles.blobId });
        for (const { blobId } of gone) await tx.delete(storedFileChunks).where(eq(storedFileChunks.blobId, blobId));
      });
    },

    async list(prefix, olderThan, listOptions = {}) {
      const db = await database();
      const limit = listOptions.limit ?? DEFAULT_LIST_LIMIT;
      const files = await db
        .select({ key: storedFiles.key, size: storedFiles.size, createdAt: storedFiles.createdAt })
        .from(storedFiles)
        .where(
          and(
            // The lower bound lets the primary key's index start at the prefix; starts_with is the exact test.
            gte(storedFiles.key, prefix),
            sql`starts_with(${storedFiles.key}, ${prefix})`,
            listOptions.after ? gt(storedFiles.key, listOptions.after) : undefined,
            lt(storedFiles.createdAt, olderThan),
          ),
        )
        .orderBy(asc(storedFiles.key))
        .limit(limit);
      return { files, next: files.length === limit ? files[files.length - 1]!.key : null };
    },

    async reclaimUnfinished(before) {
      const db = await database();
      const named = db.select({ blobId: storedFiles.blobId }).from(storedFiles);
      const growing = db.select({ blobId: storedFileChunks.blobId }).from(storedFileChunks).where(gte(storedFileChunks.createdAt, before));
      const gone = await db
        .delete(storedFileChunks)
        .where(and(lt(storedFileChunks.createdAt, before), notInArray(storedFileChunks.blobId, named), notInArray(storedFileChunks.blobId, growing)))
        .returning({ blobId: storedFileChunks.blobId });
      return gone.length;
    },

    within(db) {
      return createDbFileStore({ db: async () => db, chunkBytes });
    },
  };
}
