/**
 * File storage benchmark (not a test). `npm run bench:storage -- [megabytes=25] [runs=3]`
 *
 * For each backend, uploads a file of the given size through the real `TFileStore.put` from a generator of
 * 64 KiB pieces (made on the fly: the bench itself never holds the file), then reads it back through `get`
 * and hashes it. Each phase reports its time and this process's RSS growth: RSS sampled every 5 ms during the
 * phase, peak minus the RSS right before it (after a forced GC, `--expose-gc`). A streamed store grows by
 * its buffers (one 256 KiB chunk for the database, one 5 MiB part for S3), not by the file size.
 *
 * Backends: the database store on PGlite (in this process, as in the embedded default: its WASM heap counts);
 * on PostgreSQL when DATABASE_URL is set (a scratch database beside it, dropped at the end); the S3 store
 * against s3rver on 127.0.0.1 in a child process, so the fake server's own memory is not counted.
 * One warm-up put/get of 1 MiB per backend precedes the runs (module loading, JIT, connection setup).
 */
import { fork, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.LOG_LEVEL ??= "warn";

type TStore = import("@/server/storage/file-store").TFileStore;

const MiB = 1024 * 1024;
/**
 * BENCH_FORCE_GC=1: a full GC before each RSS sample (every 20 ms), so the peak shows what is alive rather
 * than garbage V8 has not yet collected (hex strings of the database path, freed buffers). Slows the phases.
 */
const FORCE_GC = process.env.BENCH_FORCE_GC === "1";
const PIECE = 64 * 1024;

/** Pseudo-random pieces, each a fresh buffer (a store may keep a view of a piece until its chunk is full). */
async function* body(total: number): AsyncGenerator<Uint8Array> {
  let x = 0x9e3779b9;
  for (let sent = 0; sent < total; sent += PIECE) {
    const piece = Buffer.allocUnsafe(Math.min(PIECE, total - sent));
    for (let i = 0; i < piece.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      piece.writeInt32LE(x | 0, i); // PIECE and the sizes used are multiples of 4
    }
    yield piece;
  }
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Runs `fn`, sampling RSS; returns its result, the time and the peak RSS growth over the RSS before it. */
async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; growth: number; retained: number }> {
  gc();
  await new Promise((r) => setTimeout(r, 20));
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(
    () => {
      if (FORCE_GC) gc();
      peak = Math.max(peak, process.memoryUsage.rss());
    },
    FORCE_GC ? 20 : 5,
  );
  const start = performance.now();
  try {
    const result = await fn();
    const ms = performance.now() - start;
    peak = Math.max(peak, process.memoryUsage.rss());
    clearInterval(timer);
    gc();
    return { result, ms, growth: peak - before, retained: process.memoryUsage.rss() - before };
  } finally {
    clearInterval(timer);
  }
}

async function roundTrip(store: TStore, key: string, bytes: number) {
  const put = await measure(() => store.put(key, body(bytes), { size: bytes, contentType: "application/pdf" }));
  const get = await measure(async () => {
    const file = await store.get(key);
    const hash = createHash("sha256");
    for await (const piece of file.body) hash.update(piece as Uint8Array);
    return hash.digest("hex");
  });
  if (get.result !== put.result.sha256) throw new Error(`${key}: read back a different file`);
  return { put, get };
}

const fmt = (bytes: number) => `${(bytes / MiB).toFixed(1)} MB`;

async function bench(label: string, store: TStore, bytes: number, runs: number): Promise<void> {
  await roundTrip(store, "bench/warm-up", MiB);
  await store.delete("bench/warm-up");
  for (let run = 1; run <= runs; run++) {
    const { put, get } = await roundTrip(store, `bench/run-${run}`, bytes);
    console.log(
      `${label.padEnd(22)} run ${run}: put ${put.ms.toFixed(0).padStart(5)} ms, RSS peak +${fmt(put.growth).padStart(7)}` +
        ` (after GC ${fmt(put.retained)}) | get ${get.ms.toFixed(0).padStart(5)} ms, RSS peak +${fmt(get.growth).padStart(7)}` +
        ` (after GC ${fmt(get.retained)})`,
    );
    await store.delete(`bench/run-${run}`);
  }
}

async function main(): Promise<void> {
  const [megabytes = 25, runs = 3] = process.argv.slice(2).map(Number);
  const bytes = Math.round(megabytes * MiB);
  // BENCH_CHUNK_KB tries another database chunk size than the store's default (256).
  const chunkBytes = process.env.BENCH_CHUNK_KB ? Number(process.env.BENCH_CHUNK_KB) * 1024 : undefined;
  const only = process.env.BENCH_ONLY; // "pglite", "postgres" or "s3": run one backend
  if (!(globalThis as { gc?: unknown }).gc) console.log("(no --expose-gc: RSS baselines include garbage; use npm run bench:storage)");
  console.log(`file: ${fmt(bytes)} in ${PIECE / 1024} KiB pieces; ${runs} runs per backend after one 1 MiB warm-up`);

  const { openPglite, openPostgres, setDbHandle } = await import("@/server/db/client");
  const { migrate } = await import("@/server/db/migrate");
  const { createDbFileStore } = await import("@/server/storage/create-db-file-store");
  const { createS3FileStore } = await import("@/server/storage/create-s3-file-store");

  // 1. Database store on PGlite, in this process.
  if (!only || only === "pglite") {
    // On disk, as PGLITE_DIR is in production: an in-memory PGlite keeps the stored file itself in RSS.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "foliosign-bench-pglite-"));
    const handle = await openPglite({ dataDir });
    await migrate(handle);
    setDbHandle(handle);
    await bench("database (PGlite)", createDbFileStore({ db: async () => handle.db, chunkBytes }), bytes, runs);
    setDbHandle(undefined);
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  // 2. Database store on PostgreSQL, when configured.
  const base = process.env.DATABASE_URL;
  if (base && (!only || only === "postgres")) {
    const { default: postgres } = await import("postgres");
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    const name = `foliosign_bench_storage_${process.pid}`;
    await admin.unsafe(`create database "${name}"`);
    try {
      const url = new URL(base);
      url.pathname = `/${name}`;
      const handle = await openPostgres(url.toString());
      await migrate(handle);
      await bench("database (PostgreSQL)", createDbFileStore({ db: async () => handle.db, chunkBytes }), bytes, runs);
      await handle.close();
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  } else {
    console.log("database (PostgreSQL)  skipped: DATABASE_URL is not set");
  }

  // 3. S3 store against s3rver in a child process.
  if (only && only !== "s3") return;
  const child: ChildProcess = fork(import.meta.filename, ["--s3-server"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    const config = await new Promise<import("@/server/storage/create-s3-file-store").TS3Config>((resolve, reject) => {
      child.once("message", (m) => resolve((m as { config: import("@/server/storage/create-s3-file-store").TS3Config }).config));
      child.once("exit", (code) => reject(new Error(`s3rver child exited with ${code}`)));
    });
    const store = createS3FileStore(config);
    await bench("s3 (s3rver, loopback)", store, bytes, runs);
    store.client.destroy();
  } finally {
    child.disconnect();
  }
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
}

if (process.argv.includes("--s3-server")) {
  // Child mode: the S3-speaking server, answering the parent with its configuration.
  const { startS3Server } = await import("@/server/test/s3-server");
  const server = await startS3Server("foliosign-bench");
  process.send!({ config: server.config });
  process.on("disconnect", () => void server.stop().then(() => process.exit(0)));
} else {
  await main();
}
