/**
 * `inspectFile` in a short-lived child process, on a file on disk: what the upload paths use.
 *
 * Why a child: the inspector must hold the whole file to parse it (@libpdf/core takes bytes), so in the server
 * process a 25 MB upload grew the server by ~25–60 MB (bench/uploads.ts); and a hostile file that makes the
 * parser loop or exhaust its heap must not hang or crash the server. In the child the file's memory is the
 * child's, freed when it exits, and:
 * - **time limit** (`INSPECT_TIMEOUT_MS`, default 30 s): past it the child is sent SIGKILL → 422
 *   `INSPECT_MESSAGES.tooSlow`;
 * - **heap cap** (`--max-old-space-size=INSPECT_MAX_HEAP_MB`, default 512: the seal rehearsal holds the file in
 *   pdf-lib as the sealer does, ~400 MB for 350,000 objects): a child that dies (out of memory,
 *   a crash) after it started → 422 `INSPECT_MESSAGES.crashed`. A child that dies *before* it announced itself
 *   (`ready`: its modules loaded) is a broken installation, not the file's fault → a plain Error (500, logged);
 * - **a smaller stack** (800 KB, V8's default 984 KB): the inspector rehearses the seal (rehearse-seal.ts), and
 *   a file that only just fits this stack fits the sealing worker's with a margin;
 * - **concurrency** (`INSPECT_CONCURRENCY`, default 2 per process): the others wait, so a burst of uploads
 *   does not start a burst of parsers;
 * - a **minimal environment** (PATH, TMPDIR, NODE_ENV): the process that parses hostile input holds no secret.
 *
 * How the child is started: plain `node` on a bundle of `inspect-child.ts` and our modules it imports (packages
 * stay imports), made with esbuild on the first inspection of each process and whenever one of its sources
 * changes (a stat of each per inspection), written under `node_modules/.cache/foliosign/` (so the bundle's
 * `@libpdf/core` import resolves from the project's node_modules) under a name that is the hash of its text.
 * The sources are found from the project directory (`process.cwd()`: `npm start`, `next start`, the worker,
 * vitest and the benches all run from it); the Next bundle never contains the child's code, it only spawns it.
 * Why not `node --import tsx` on the source: measured here, the child then took 3 s and 230 MB to start (tsx
 * transforms the 4 MB @libpdf/core module on every start); plain node loads the bundle in ~1 s and 75 MB.
 */
import { createHash } from "node:crypto";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { env } from "@/server/env";
import { concurrencyLimit } from "@/server/lib/concurrency";
import { AppError, errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import type { TInspectReply, TInspectRequest } from "./inspect-child";
import { INSPECT_MESSAGES, type TInspectedFile, type TInspectOptions } from "./inspect-file";

export type TChildInspectOptions = TInspectOptions & {
  /** Overrides INSPECT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Overrides INSPECT_MAX_HEAP_MB. */
  maxHeapMb?: number;
  /** Called with the child's pid once it is started (tests check that it is gone afterwards). */
  onSpawn?: (pid: number) => void;
};

const CHILD_SOURCE = path.join("server", "documents-io", "inspect-child.ts");
const BUNDLE_DIR = path.join("node_modules", ".cache", "foliosign");
const STDERR_TAIL_BYTES = 2048;
const CHILD_STACK_KB = 800;
const inspections = concurrencyLimit();

export async function inspectInChild(filePath: string, options: TChildInspectOptions = {}): Promise<TInspectedFile> {
  const config = env();
  return inspections(config.INSPECT_CONCURRENCY, () =>
    runChild(filePath, {
      ...options,
      timeoutMs: options.timeoutMs ?? config.INSPECT_TIMEOUT_MS,
      maxHeapMb: options.maxHeapMb ?? config.INSPECT_MAX_HEAP_MB,
    }),
  );
}

async function runChild(filePath: string, options: TChildInspectOptions & { timeoutMs: number; maxHeapMb: number }): Promise<TInspectedFile> {
  const root = process.cwd();
  const script = await childScript(root);
  // Imported unanalysed: Turbopack reads `fork(path)` as a reference to a module to bundle, and the bundle's
  // path (under node_modules/.cache, named by a hash) is not one it can or should bundle.
  const { fork } = (await import(/* turbopackIgnore: true */ "node:child_process")) as typeof import("node:child_process");
  return new Promise<TInspectedFile>((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_ENV: "production" };
    if (process.env.TMPDIR) childEnv.TMPDIR = process.env.TMPDIR;
    const child = fork(script, [], {
      cwd: root,
      env: childEnv,
      // A smaller stack than every other process's (V8's default is 984 KB): a file whose structure recurses
      // nearly deep enough to overflow the rehearsed seal here passes only with room to spare in the worker.
      execArgv: [`--max-old-space-size=${options.maxHeapMb}`, `--stack-size=${CHILD_STACK_KB}`],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    const startedAt = performance.now();
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let ready = false;
    let settled = false;
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
    });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      outcome();
    };
    const timer = setTimeout(() => {
      logger().warn({ timeoutMs: options.timeoutMs }, "upload inspection timed out: child killed");
      finish(() => reject(errors.unprocessable(INSPECT_MESSAGES.tooSlow)));
    }, options.timeoutMs);

    child.on("message", (reply: TInspectReply) => {
      if (reply.type === "ready") {
        ready = true;
        const request: TInspectRequest = { path: filePath, maxBytes: options.maxBytes ?? env().MAX_DOCUMENT_BYTES, maxPages: options.maxPages };
        child.send(request);
      } else if (reply.type === "result") {
        logger().debug({ ms: Math.round(performance.now() - startedAt), childMaxRssMb: Math.round(reply.maxRssBytes / 1048576) }, "upload inspected");
        finish(() => resolve(reply.result));
      } else if (reply.type === "refused") {
        // The child built it from the table (inspect-file.ts); this only carries it across the process boundary.
        finish(() => reject(new AppError(reply.kind, reply.message)));
      } else {
        // Not the file's fault as far as we know (e.g. the temporary file could not be read): a bug, 500.
        finish(() => reject(new Error(`upload inspection failed: ${reply.message}`)));
      }
    });
    child.on("error", (err) => finish(() => reject(err)));
    child.on("exit", (code, signal) => {
      if (settled) return;
      if (!ready) {
        finish(() => reject(new Error(`the upload inspector did not start (exit ${code ?? signal}): ${stderr.trim()}`)));
        return;
      }
      // Started, then died without answering: the heap cap or a crash in the parser, i.e. the file.
      logger().warn({ code, signal, stderr: stderr.slice(-500) }, "upload inspection child died");
      finish(() => reject(errors.unprocessable(INSPECT_MESSAGES.crashed)));
    });
  });
}

type TBundle = { file: string; inputs: { file: string; mtimeMs: number }[] };
let bundle: Promise<TBundle> | undefined;

/** The child's bundle, rebuilt when a source changed since it was made. */
async function childScript(root: string): Promise<string> {
  const current = await bundle?.catch(() => undefined);
  if (current && (await unchanged(current))) return current.file;
  bundle = buildBundle(root);
  return (await bundle).file;
}

async function unchanged(current: TBundle): Promise<boolean> {
  for (const input of current.inputs) {
    const now = await stat(input.file).catch(() => null);
    if (now?.mtimeMs !== input.mtimeMs) return false;
  }
  return true;
}

async function buildBundle(root: string): Promise<TBundle> {
  // Imported when needed: esbuild is a native binary, kept out of Next's bundle (serverExternalPackages).
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(root, CHILD_SOURCE)],
    absWorkingDir: root,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  // esbuild keeps a service process alive for the next build; there is none until a source changes.
  await esbuild.stop();
  const text = result.outputFiles[0]!.text;
  const inputs = await Promise.all(
    Object.keys(result.metafile.inputs).map(async (input) => {
      const file = path.resolve(root, input);
      return { file, mtimeMs: (await stat(file)).mtimeMs };
    }),
  );
  const dir = path.join(root, BUNDLE_DIR);
  const file = path.join(dir, `inspect-child-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.mjs`);
  if (!(await stat(file).catch(() => null))) {
    await mkdir(dir, { recursive: true });
    // Written aside and renamed: a concurrent process never runs half a file.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, text);
    await rename(partial, file);
  }
  return { file, inputs };
}
