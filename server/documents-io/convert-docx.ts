/**
 * DOCX → PDF with LibreOffice headless. Library-level: no HTTP here; the caller stores the bytes and runs
 * `inspectFile` on them for the page count and sizes.
 *
 * Decisions:
 * - **A fresh profile and directory per conversion** (`mkdtemp`, `-env:UserInstallation=file://…`): two
 *   conversions never share LibreOffice's profile lock, a crash leaves no state behind, and the profile is
 *   seeded with our settings. Everything is removed in `finally`, whatever happened; what a killed process
 *   leaves behind is swept at the next start (`sweep-temp-dirs.ts`).
 * - **No network.** LibreOffice has no switch for "offline", so two layers:
 *   1. when the kernel allows it (`CONVERT_NETWORK_SANDBOX=auto`, the default), the process runs under
 *      `unshare --net --map-root-user`: a network namespace of its own with no interface but a downed
 *      loopback, so nothing can be fetched whatever the document links to;
 *   2. always, the seeded profile blocks linked resources of untrusted documents
 *      (`BlockUntrustedRefererLinks`), turns the update check off, and forbids macros; the child gets a
 *      minimal environment (no proxy variables, HOME inside the temporary directory).
 *   Where unshare is unavailable (a container without user namespaces) layer 2 is what remains; the log
 *   says so once.
 * - **Time limit**: the child leads its own process group (`detached`); on timeout the whole group is sent
 *   SIGKILL (soffice → oosplash → soffice.bin would otherwise survive a kill of the first pid). The group is
 *   also killed after a normal exit, so no helper outlives a conversion.
 * - **Concurrency**: at most `CONVERT_CONCURRENCY` (default 1) conversions per process; the rest queue.
 *   LibreOffice is memory-hungry and the machine small; one at a time is the safe default.
 * - **ZIP bombs** are refused before the converter starts (`checkDocxArchive`: declared sizes, ratios and
 *   records; 422), so a 1 MB file that expands to 1 GiB never holds the conversion slot. The upload already
 *   refuses them; this covers a DOCX stored before that check existed.
 * - A **timeout** is the document's doing (too large or too complex to convert in the time allowed), not the
 *   converter's: `AppError("UNPROCESSABLE")` (422) saying so. Missing binary, a crash or no PDF produced →
 *   `AppError("BAD_GATEWAY")` (502) with a clear message. Details go to the log, never to the API user.
 * - **Gotenberg** (`GOTENBERG_URL`), when set, replaces the local binary: the DOCX is posted to its
 *   LibreOffice route under the same time limit (the request is aborted) and the same concurrency limit.
 *   Its network isolation is the operator's business (Gotenberg has its own flags for it); the answer is
 *   capped at MAX_PDF_BYTES and must be a PDF.
 */
import { spawn, spawnSync } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, mkdir, readFile, rm, writeFile, copyFile } from "node:fs/promises";
import path from "node:path";
import { env } from "@/server/env";
import { concurrencyLimit } from "@/server/lib/concurrency";
import { AppError, errors } from "@/server/lib/errors";
import { logger } from "@/server/lib/logger";
import { readCapped } from "@/server/lib/read-capped";
import { checkDocxArchive } from "./check-docx-archive";
import { makeTempDir } from "./temp-dirs";

export type TConvertOptions = {
  /** Overrides SOFFICE_PATH. */
  sofficePath?: string;
  /** Overrides CONVERT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Overrides CONVERT_NETWORK_SANDBOX. */
  networkSandbox?: "auto" | "off";
  /** Overrides GOTENBERG_URL; `null` forces the local binary. */
  gotenbergUrl?: string | null;
};

export const CONVERT_MESSAGES = {
  missing: "The DOCX converter is not available (LibreOffice is not installed or SOFFICE_PATH is wrong)",
  timeout: (ms: number) =>
    `The document took too long to convert (more than ${ms / 1000} s); it may be too large or too complex: simplify it, or save it as a PDF and upload that`,
  crashed: (how: string) => `The DOCX converter failed (${how})`,
  noOutput: "The DOCX converter produced no PDF (the document may be damaged or use unsupported features)",
} as const;

/** Seeded into the fresh profile; see the header for why each setting is here. */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Jobs/Jobs/org.openoffice.Office.Jobs:Job['UpdateCheck']/Arguments"><prop oor:name="AutoCheckEnabled" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="CollectUsageInformation" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

const OUTPUT_TAIL_BYTES = 4096;
const conversions = concurrencyLimit();
const MAX_PDF_BYTES = 200 * 1024 * 1024;
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

export async function convertDocx(source: string | Uint8Array, options: TConvertOptions = {}): Promise<Buffer> {
  const config = env();
  const sofficePath = options.sofficePath ?? config.SOFFICE_PATH;
  const timeoutMs = options.timeoutMs ?? config.CONVERT_TIMEOUT_MS;
  const gotenbergUrl = options.gotenbergUrl === undefined ? config.GOTENBERG_URL : options.gotenbergUrl;
  // Before taking a conversion slot: a refused archive costs no wait and no converter.
  await checkDocxArchive(typeof source === "string" ? await readFile(source) : Buffer.from(source.buffer, source.byteOffset, source.byteLength));
  if (gotenbergUrl) {
    return conversions(config.CONVERT_CONCURRENCY, () => convertWithGotenberg(source, gotenbergUrl, timeoutMs));
  }
  const sandbox = (options.networkSandbox ?? config.CONVERT_NETWORK_SANDBOX) === "auto" && canUnshareNetwork();

  const binary = await findExecutable(sofficePath);
  if (!binary) throw errors.badGateway(CONVERT_MESSAGES.missing);

  return conversions(config.CONVERT_CONCURRENCY, () => convertInTempDir(source, binary, sandbox, timeoutMs));
}

async function convertInTempDir(source: string | Uint8Array, binary: string, sandbox: boolean, timeoutMs: number) {
  const dir = await makeTempDir("convert");
  try {
    const profile = path.join(dir, "profile");
    const outDir = path.join(dir, "out");
    const input = path.join(dir, "document.docx");
    await mkdir(path.join(profile, "user"), { recursive: true });
    await mkdir(outDir);
    await writeFile(path.join(profile, "user", "registrymodifications.xcu"), PROFILE_SETTINGS);
    if (typeof source === "string") await copyFile(source, input);
    else await writeFile(input, source);

    const args = [
      "--headless",
      "--invisible",
      "--norestore",
      "--nologo",
      "--nodefault",
      "--nolockcheck",
      "--nofirststartwizard",
      `-env:UserInstallation=${new URL(`file://${profile}`).href}`,
      "--convert-to",
      "pdf:writer_pdf_Export",
      "--outdir",
      outDir,
      input,
    ];
    const [command, commandArgs] = sandbox ? ["unshare", ["--net", "--map-root-user", "--", binary, ...args]] : [binary, args];
    const result = await runGroup(command, commandArgs, timeoutMs, {
      NODE_ENV: "production",
      // The process's own search path, not configuration: the child needs it to find its helpers.
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: dir,
      TMPDIR: dir,
      LANG: "C.UTF-8",
      SAL_USE_VCLPLUGIN: "svp",
    });
    if (result.timedOut) {
      logger().warn({ timeoutMs, output: result.output }, "docx conversion timed out");
      throw errors.unprocessable(CONVERT_MESSAGES.timeout(timeoutMs));
    }
    if (result.spawnError || result.code !== 0) {
      const how = result.spawnError ? result.spawnError : result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`;
      logger().warn({ how, output: result.output }, "docx conversion failed");
      throw errors.badGateway(CONVERT_MESSAGES.crashed(how));
    }
    const pdf = await readFile(path.join(outDir, "document.pdf")).catch(() => null);
    if (!pdf || pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
      logger().warn({ output: result.output }, "docx conversion produced no PDF");
      throw errors.badGateway(CONVERT_MESSAGES.noOutput);
    }
    return pdf;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function convertWithGotenberg(source: string | Uint8Array, baseUrl: string, timeoutMs: number): Promise<Buffer> {
  const docx = typeof source === "string" ? await readFile(source) : source;
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(docx)], { type: DOCX_TYPE }), "document.docx");
  const url = `${baseUrl.replace(/\/$/, "")}/forms/libreoffice/convert`;
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  try {
    const response = await fetch(url, { method: "POST", body: form, signal: abort.signal, redirect: "error" });
    if (!response.ok) {
      logger().warn({ status: response.status, body: (await response.text()).slice(0, OUTPUT_TAIL_BYTES) }, "gotenberg conversion failed");
      throw errors.badGateway(CONVERT_MESSAGES.crashed(`Gotenberg answered ${response.status}`));
    }
    const pdf = await readCapped(response.body, MAX_PDF_BYTES);
    if (!pdf || pdf.subarray(0, 5).toString("latin1") !== "%PDF-") {
      throw errors.badGateway(CONVERT_MESSAGES.noOutput);
    }
    return pdf;
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (timedOut) throw errors.unprocessable(CONVERT_MESSAGES.timeout(timeoutMs));
    logger().warn({ err: error }, "gotenberg unreachable");
    throw errors.badGateway(CONVERT_MESSAGES.crashed("Gotenberg is unreachable"));
  } finally {
    clearTimeout(timer);
  }
}

type TRunResult = {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  spawnError?: string;
  output: string;
};

function runGroup(command: string, args: string[], timeoutMs: number, childEnv: NodeJS.ProcessEnv): Promise<TRunResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"], env: childEnv });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, timedOut, spawnError: error.message, output });
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, signal, timedOut, output });
    });
  });
}

async function findExecutable(name: string): Promise<string | null> {
  const candidates = name.includes("/")
    ? [path.resolve(name)]
    : (process.env.PATH ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here; try the next
    }
  }
  return null;
}

let unshareWorks: boolean | undefined;

/** Probed once per process: user and network namespaces are often disabled in containers. */
function canUnshareNetwork(): boolean {
  if (unshareWorks === undefined) {
    const probe = spawnSync("unshare", ["--net", "--map-root-user", "true"], { stdio: "ignore", timeout: 5000 });
    unshareWorks = probe.status === 0;
    if (!unshareWorks) {
      logger().warn("unshare is unavailable: LibreOffice runs without a network namespace, its settings only");
    }
  }
  return unshareWorks;
}
