/**
 * bench:uploads — documents through the upload PUT and back out of the app's file route, in process (the real
 * route handlers, a streamed request body, the database file store), printing time and the server's memory.
 *
 * Backends: each runs in a fresh child process of its own (so "upload 1" is the first upload of a fresh
 * server): PGlite in a temporary directory, and PostgreSQL when DATABASE_URL is set (a scratch database
 * `foliosign_bench_uploads_<pid>` beside it, dropped at the end). BENCH_ONLY=pglite|postgres runs one, in this
 * process. Run with `npm run bench:uploads` (node --expose-gc).
 *
 * The body is a valid one-page PDF whose content stream is BENCH_UPLOAD_BYTES (default 200 MB) of spaces,
 * generated in 64 KiB chunks as it is sent (nothing of it is held by the bench). Phases, in this order:
 *   upload 1 … BENCH_UPLOADS (default 3): PUT /uploads/{token} end to end (store and temporary copy in one
 *     pass, inspection in a child process on the copy, record); upload 1 is the process's first;
 *   read: GET /api/app/templates/…/documents/…/file, the response consumed chunk by chunk.
 * For each phase: RSS before (after two full GCs), the highest RSS sampled every 5 ms during it ("peak"), and
 * RSS after it (after two full GCs again: "kept"); beside them what grew — V8's heap, memory outside it
 * (`external`: Buffers) and, on PGlite, its WebAssembly memory (which can grow but never shrink).
 * The inspector holds the PDF to parse it (@libpdf/core needs the bytes), in its own short-lived child process
 * (server/documents-io/inspect-in-child.ts): that memory is not the server's, and is printed apart as the
 * child's peak RSS (its VmHWM in /proc, sampled every 20 ms; Linux only).
 * BENCH_FORCE_GC=1 runs a full GC before each RSS sample (every 20 ms): the peak is then what is alive, not
 * garbage V8 has not collected yet (slower; times not comparable).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 200 * 1024 * 1024);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 3);
const CHUNK = 64 * 1024;

/** A one-page PDF of exactly `size` bytes, produced as a stream. */
function pdfOfSize(size: number): () => AsyncGenerator<Uint8Array> {
  const head = "%PDF-1.7\n";
  const objs = [
    "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n",
    "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n",
    "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>\nendobj\n",
  ];
  const tailFor = (padding: number, offsets: number[], xref: number) =>
    `\nendstream\nendobj\nxref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const offsets: number[] = [];
  let at = head.length;
  for (const o of objs) {
    offsets.push(at);
    at += o.length;
  }
  offsets.push(at);
  // The stream header's /Length digits and the xref offset depend on the padding: solve by iterating.
  let padding = size - 2000;
  for (let i = 0; i < 5; i++) {
    const streamHead = `4 0 obj\n<< /Length ${padding} >>\nstream\n`;
    const xref = at + streamHead.length + padding + "\nendstream\nendobj\n".length;
    const total = at + streamHead.length + padding + tailFor(padding, offsets, xref).length;
    padding += size - total;
  }
  const streamHead = `4 0 obj\n<< /Length ${padding} >>\nstream\n`;
  const xref = at + streamHead.length + padding + "\nendstream\nendobj\n".length;
  const prefix = Buffer.from(head + objs.join("") + streamHead, "latin1");
  const suffix = Buffer.from(tailFor(padding, offsets, xref), "latin1");
  if (prefix.length + padding + suffix.length !== size) throw new Error("pdfOfSize: size not reached");
  const spaces = Buffer.alloc(CHUNK, 0x20);
  return async function* () {
    yield new Uint8Array(prefix);
    for (let left = padding; left > 0; left -= CHUNK) yield new Uint8Array(spaces.subarray(0, Math.min(CHUNK, left)));
    yield new Uint8Array(suffix);
  };
}

function webStream(gen: () => AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return Readable.toWeb(Readable.from(gen(), { objectMode: false })) as ReadableStream<Uint8Array>;
}

const gc = (globalThis as { gc?: () => void }).gc;
const FORCE_GC = process.env.BENCH_FORCE_GC === "1";
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Peak RSS (VmHWM) of this process's inspector children seen so far, from /proc; 0 where /proc is not Linux's. */
function watchChildren(): { stop(): number } {
  const peaks = new Map<number, number>();
  const scan = () => {
    let pids: string[] = [];
    try {
      pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    } catch {
      return;
    }
    for (const pid of pids) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "latin1");
        if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue;
        // Only the inspector (tsx's esbuild service is a child of this process too).
        if (!readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("inspect-child")) continue;
        const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
        peaks.set(Number(pid), Math.max(peaks.get(Number(pid)) ?? 0, hwm));
      } catch {
        // gone meanwhile
      }
    }
  };
  const timer = setInterval(scan, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(0, ...peaks.values());
    },
  };
}

type TMemory = { rss: number; heap: number; external: number; wasm: number };

async function measure<T>(label: string, bytes: number, memory: () => TMemory, run: () => Promise<T>): Promise<T> {
  const settle = async () => {
    gc?.();
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
    return memory();
  };
  const before = await settle();
  let peak = before.rss;
  let peakHeap = 0;
  let peakExternal = 0;
  const timer = setInterval(
    () => {
      if (FORCE_GC) gc?.();
      const m = process.memoryUsage();
      if (m.rss > peak) {
        peak = m.rss;
        peakHeap = m.heapTotal;
        peakExternal = m.external;
      }
    },
    FORCE_GC ? 20 : 5,
  );
  const children = watchChildren();
  const t0 = performance.now();
  const result = await run();
  const ms = performance.now() - t0;
  clearInterval(timer);
  const childPeak = children.stop();
  peak = Math.max(peak, process.memoryUsage().rss);
  const after = await settle();
  const grew = (k: keyof TMemory) => `${after[k] - before[k] >= 0 ? "+" : ""}${mb(after[k] - before[k])}`;
  console.log(
    `${label.padEnd(9)} ${(ms / 1000).toFixed(2).padStart(6)} s ${(bytes / 1024 / 1024 / (ms / 1000)).toFixed(1).padStart(6)} MB/s` +
      `  RSS before ${mb(before.rss).padStart(6)} MB  peak +${mb(peak - before.rss).padStart(5)} MB${peakHeap ? ` (then heap total ${mb(peakHeap)}, external ${mb(peakExternal)} MB)` : ""}  kept ${grew("rss").padStart(6)} MB` +
      `  (heap ${grew("heap")}, external ${grew("external")}${before.wasm ? `, WASM ${grew("wasm")} of ${mb(after.wasm)}` : ""} MB)` +
      (childPeak ? `  inspector child peak RSS ${mb(childPeak)} MB` : ""),
  );
  return result;
}

async function runBackend(only: "pglite" | "postgres"): Promise<void> {
  if (!gc) console.warn("no --expose-gc: the baselines include garbage (run through npm run bench:uploads)");
  process.env.MAX_DOCUMENT_BYTES ??= String(Math.max(SIZE, 26_214_400));
  process.env.LOG_LEVEL ??= "warn";
  // The inspector child parses the whole PDF: give a 200 MB file time and heap on a loaded machine (its memory is not the server's).
  process.env.INSPECT_TIMEOUT_MS ??= "600000";
  process.env.INSPECT_MAX_HEAP_MB ??= "4096";
  const { openPglite, openPostgres, setDbHandle } = await import("@/server/db/client");
  const { migrate } = await import("@/server/db/migrate");
  const { insertOrganisation } = await import("@/server/domain/organisation/create-organisation");
  const { templates } = await import("@/server/db/schema");
  const { workspaceActor } = await import("@/server/test/actors");
  const { addDocument } = await import("@/server/domain/documents/add-document");
  const { uploadRoute } = await import("@/server/http/upload-route");
  const { setSessionLookup } = await import("@/server/auth/app-route");
  const fileRoute = await import("@/app/api/app/templates/[templateId]/documents/[documentId]/file/route");
  const { newId } = await import("@/server/lib/ids");

  const base = process.env.DATABASE_URL;
  let cleanup = async () => {};
  let handle;
  let backend: string;
  if (only === "postgres") {
    if (!base) throw new Error("BENCH_ONLY=postgres needs DATABASE_URL");
    const { default: postgres } = await import("postgres");
    const name = `foliosign_bench_uploads_${process.pid}`;
    const adminUrl = new URL(base);
    const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const dbUrl = new URL(base);
    dbUrl.pathname = `/${name}`;
    handle = await openPostgres(dbUrl.toString(), { max: 5 });
    backend = "PostgreSQL";
    cleanup = async () => {
      await handle!.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-bench-uploads-"));
    handle = await openPglite({ dataDir: dir });
    backend = "PGlite";
    cleanup = async () => {
      await handle!.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  // PGlite's WebAssembly memory (its PostgreSQL's heap): drizzle keeps the client as $client.
  const wasm = () => (handle!.db as unknown as { $client?: { mod?: { HEAPU8?: Uint8Array } } }).$client?.mod?.HEAPU8?.length ?? 0;
  const memory = (): TMemory => {
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed, external: m.external, wasm: wasm() };
  };
  setDbHandle(handle);
  try {
    await migrate(handle);
    const db = handle.db;
    const org = await insertOrganisation(db, { name: "Bench", email: "bench@bench.test", passwordHash: null, organisationName: "Bench" });
    const actor = workspaceActor(org.organisationId, org.workspaceId);
    const templateId = newId("tpl");
    await db.insert(templates).values({ id: templateId, organisationId: org.organisationId, workspaceId: org.workspaceId, name: "Bench" });
    const body = pdfOfSize(SIZE);
    console.log(
      `bench:uploads — ${mb(SIZE)} MB PDF, database file store on ${backend}, node ${process.version}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );

    let lastDocument = "";
    for (let n = 1; n <= UPLOADS; n++) {
      const added = await addDocument(db, actor, { owner: { templateId }, name: `Bench ${n}.pdf`, fileSize: SIZE, contentType: "application/pdf" });
      const token = new URL(added.uploadUrl!).pathname.split("/").pop()!;
      await measure(`upload ${n}`, SIZE, memory, async () => {
        const res = await uploadRoute(new Request(added.uploadUrl!, { method: "PUT", body: webStream(body), duplex: "half" } as RequestInit), {
          params: Promise.resolve({ token }),
        });
        if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      });
      lastDocument = added.document.id;
    }

    setSessionLookup(async () => ({ userId: org.userId, organisationId: org.organisationId }));
    await measure("read", SIZE, memory, async () => {
      const res = await fileRoute.GET(new Request(`http://localhost/api/app/templates/${templateId}/documents/${lastDocument}/file`), {
        params: Promise.resolve({ templateId, documentId: lastDocument }),
      });
      let n = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.byteLength;
      if (res.status !== 200 || n !== SIZE) throw new Error(`read answered ${res.status} with ${n} bytes`);
    });
  } finally {
    await cleanup();
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only === "pglite" || only === "postgres") return runBackend(only);
  // Each backend in a fresh process: its first upload is a fresh server's first.
  for (const backend of process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]) {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!], { stdio: "inherit", env: { ...process.env, BENCH_ONLY: backend } });
      child.on("exit", resolve);
    });
    if (code !== 0) throw new Error(`${backend} run exited with ${code}`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
