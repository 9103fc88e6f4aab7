/**
 * Sealed-file download benchmark (not a test). `npm run bench:sealing-job -- [megabytes=100] [runs=3]`
 *
 * Measures what the issue asks of ops 23–24: "merged download of 100 MB of documents: server RSS growth". The
 * server here is this process: the real route handlers (`GET /api/v1/packages/{id}/download` and
 * `…/download/zip`) are called with a real API key, and the Response body is read to its end and hashed, as
 * Next would pipe it to a socket. RSS is sampled every 5 ms; the figure is the peak minus the RSS just before
 * the download (after a forced GC, `--expose-gc`).
 *
 * The stored files are written once through the real file store from a generator (the bench never holds them):
 * a merged file of the given size and one document of that size for the zip. They are not real sealed PDFs —
 * sealing 100 MB with the engine holds the documents in memory and is the sealing job's cost, not the
 * download's; the download path streams whatever `sealed_files` names, byte for byte.
 *
 * Database: PostgreSQL (a scratch database beside DATABASE_URL, dropped at the end) when DATABASE_URL is set,
 * else PGlite on disk in this process (its WASM heap counts, see the storage bench).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

process.env.LOG_LEVEL ??= "warn";
process.env.MAX_MERGED_DOWNLOAD_BYTES ??= String(2 * 1024 * 1024 * 1024 - 1);

const MiB = 1024 * 1024;
const PIECE = 64 * 1024;
const FORCE_GC = process.env.BENCH_FORCE_GC === "1";

async function* body(total: number): AsyncGenerator<Uint8Array> {
  let x = 0x9e3779b9;
  for (let sent = 0; sent < total; sent += PIECE) {
    const piece = Buffer.allocUnsafe(Math.min(PIECE, total - sent));
    for (let i = 0; i + 4 <= piece.length; i += 4) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      piece.writeInt32LE(x | 0, i);
    }
    yield piece;
  }
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const fmt = (bytes: number) => `${(bytes / MiB).toFixed(1)} MB`;

async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; growth: number }> {
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
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, ms: performance.now() - start, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const [megabytes = 100, runs = 3] = process.argv.slice(2).map(Number);
  const bytes = Math.round(megabytes * MiB);
  if (!(globalThis as { gc?: unknown }).gc) console.log("(no --expose-gc: baselines include garbage; use npm run bench:sealing-job)");

  const { openPglite, openPostgres, setDbHandle } = await import("@/server/db/client");
  const { migrate } = await import("@/server/db/migrate");
  const { packages, sealedFiles } = await import("@/server/db/schema");
  const { createTestKey, createTestOrg } = await import("@/server/test/factories");
  const { callRoute } = await import("@/server/test/http");
  const { getFileStore } = await import("@/server/storage/get-file-store");
  const { newId } = await import("@/server/lib/ids");
  const { GET: downloadRoute } = await import("@/app/api/v1/packages/[packageId]/download/route");
  const { GET: zipRoute } = await import("@/app/api/v1/packages/[packageId]/download/zip/route");

  const base = process.env.DATABASE_URL;
  let cleanup: () => Promise<void>;
  let handle: Awaited<ReturnType<typeof openPglite>>;
  let label: string;
  if (base) {
    const { default: postgres } = await import("postgres");
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    const name = `foliosign_bench_sealjob_${process.pid}`;
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    handle = await openPostgres(url.toString());
    label = "PostgreSQL";
    cleanup = async () => {
      await handle.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "foliosign-bench-sealjob-"));
    handle = await openPglite({ dataDir });
    label = "PGlite (on disk)";
    cleanup = async () => {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  try {
    await migrate(handle);
    setDbHandle(handle);
    const db = handle.db;
    const org = await createTestOrg(db);
    const key = (await createTestKey(db, org)).value;
    const packageId = newId("pkg");
    const at = new Date();
    await db.insert(packages).values({
      id: packageId,
      organisationId: org.organisationId,
      workspaceId: org.workspaceId,
      ownerUserId: org.userId,
      title: "Bench",
      status: "COMPLETED",
      completedAt: at,
    });
    const store = await getFileStore();
    const put = async (kind: "document" | "merged" | "certificate", size: number) => {
      const storageKey = `bench/${packageId}/${kind}`;
      const stored = await store.put(storageKey, body(size), { size, contentType: "application/pdf" });
      await db.insert(sealedFiles).values({
        id: newId("sfl"),
        organisationId: org.organisationId,
        workspaceId: org.workspaceId,
        packageId,
        kind,
        documentId: null,
        name: `${kind}.pdf`,
        storageKey,
        sha256: stored.sha256,
        size: stored.size,
        pages: 1,
      });
      return stored.sha256;
    };
    console.log(`${label}: storing a ${fmt(bytes)} merged file, a ${fmt(bytes)} document and a 64 KiB certificate…`);
    const mergedSha = await put("merged", bytes);
    await put("document", bytes);
    await put("certificate", 64 * 1024);

    const read = async (route: typeof downloadRoute) => {
      const res = await callRoute(route, { key, params: { packageId } });
      if (res.status !== 200) throw new Error(`download answered ${res.status}`);
      const hash = createHash("sha256");
      let n = 0;
      for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(piece);
        n += piece.byteLength;
      }
      return { sha: hash.digest("hex"), n };
    };
    await read(zipRoute); // warm-up: module loading, JIT, first queries
    for (let run = 1; run <= runs; run++) {
      const merged = await measure(() => read(downloadRoute));
      if (merged.result.sha !== mergedSha) throw new Error("the merged download differs from the stored file");
      const zip = await measure(() => read(zipRoute));
      console.log(
        `${label} run ${run}: merged ${fmt(merged.result.n)} in ${merged.ms.toFixed(0)} ms, RSS peak +${fmt(merged.growth)}` +
          ` | zip ${fmt(zip.result.n)} in ${zip.ms.toFixed(0)} ms, RSS peak +${fmt(zip.growth)}`,
      );
    }
  } finally {
    setDbHandle(undefined);
    await cleanup();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
