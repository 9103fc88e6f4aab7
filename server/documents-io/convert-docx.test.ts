/**
 * convertDocx runs the real LibreOffice on a real DOCX, and answers 502 with a clear message when the
 * converter is missing, crashes or produces nothing; 422 when the document overruns its time limit (the
 * document's doing) or is a ZIP bomb (refused before the converter starts). Protects: the whole process
 * group dies on timeout (a surviving soffice.bin would pile up), conversions queue one at a time, temporary
 * directories are always removed, and the network namespace really cuts the converter off (checked against
 * a listener on 127.0.0.1, the only address tests may use). With GOTENBERG_URL the DOCX is posted to a
 * stand-in Gotenberg on 127.0.0.1, and its failures and silences become the same 502s.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/server/env";
import { AppError } from "@/server/lib/errors";
import { CONVERT_MESSAGES, convertDocx } from "./convert-docx";
import { inspectFile } from "./inspect-file";
import { docxParts, zerosDeflated, zipRecords } from "./test-support/zip-records";

const DOCX_FIXTURE = path.join(import.meta.dirname, "fixtures", "hello.docx");
const scratch = mkdtempSync(path.join(os.tmpdir(), "foliosign-convert-test-"));
// This file's conversions make their directories under a TMPDIR of its own (os.tmpdir() reads it at each call),
// so a conversion in another test process at the same moment cannot fail the "no temporary files left" check.
const sharedTmpdir = process.env.TMPDIR;
process.env.TMPDIR = scratch;
afterAll(() => {
  if (sharedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = sharedTmpdir;
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.SOFFICE_PATH;
  delete process.env.CONVERT_CONCURRENCY;
  resetEnvCache();
});

/** A stand-in for soffice: a shell script with the given body. */
function fakeConverter(name: string, body: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, `#!/bin/bash\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

async function badGateway(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).kind).toBe("BAD_GATEWAY");
  return (error as AppError).message;
}

async function unprocessable(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).kind).toBe("UNPROCESSABLE");
  return (error as AppError).message;
}

const ourTempDirs = () => readdirSync(os.tmpdir()).filter((n) => /^foliosign-convert-(?!test-)/.test(n));

describe("convertDocx", () => {
  it("converts a real DOCX to a PDF whose text pdftotext reads back, and leaves no temporary files", async () => {
    const before = ourTempDirs();
    const pdf = await convertDocx(DOCX_FIXTURE);
    const inspected = await inspectFile(pdf);
    expect(inspected).toMatchObject({ kind: "pdf", pageCount: 1 });
    const text = spawnSync("pdftotext", ["-", "-"], { input: pdf, encoding: "utf8" });
    expect(text.stdout).toContain("Foliosign conversion fixture");
    expect(ourTempDirs()).toEqual(before);
  });

  it("answers 502 when SOFFICE_PATH points at nothing", async () => {
    process.env.SOFFICE_PATH = path.join(scratch, "no-such-soffice");
    resetEnvCache();
    expect(await badGateway(convertDocx(readFileSync(DOCX_FIXTURE)))).toBe(CONVERT_MESSAGES.missing);
  });

  it("answers 502 when the converter crashes or writes no PDF", async () => {
    const crash = fakeConverter("crash", "echo boom >&2\nexit 3");
    expect(await badGateway(convertDocx(DOCX_FIXTURE, { sofficePath: crash }))).toBe(CONVERT_MESSAGES.crashed("exit code 3"));
    const silent = fakeConverter("silent", "exit 0");
    expect(await badGateway(convertDocx(DOCX_FIXTURE, { sofficePath: silent }))).toBe(CONVERT_MESSAGES.noOutput);
  });

  it("kills the whole process group on timeout and answers 422: the document took too long", async () => {
    const pidFile = path.join(scratch, "sleeper.pid");
    const sleeper = fakeConverter("sleeper", `sleep 600 &\necho $! > ${pidFile}\nwait`);
    const message = await unprocessable(convertDocx(DOCX_FIXTURE, { sofficePath: sleeper, timeoutMs: 300 }));
    expect(message).toBe(CONVERT_MESSAGES.timeout(300));
    expect(message).toBe(
      "The document took too long to convert (more than 0.3 s); it may be too large or too complex: simplify it, or save it as a PDF and upload that",
    );
    // The grandchild `sleep` was in the group: it is gone (or a zombie awaiting its reaper), not sleeping.
    const pid = readFileSync(pidFile, "utf8").trim();
    await vi.waitFor(() => {
      const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, "utf8") : "";
      expect(status).not.toMatch(/^State:\s+[RSD]/m);
    });
  });

  it("refuses a ZIP bomb with 422 before the converter starts", async () => {
    const marker = path.join(scratch, "bomb-converter-ran");
    const converter = fakeConverter("bomb-converter", `touch ${marker}\nexit 0`);
    const bomb = zipRecords(docxParts({ name: "word/document.xml", data: zerosDeflated(1024), uncompressed: 1024 * 1024 * 1024, method: 8 }));
    expect(await unprocessable(convertDocx(bomb, { sofficePath: converter }))).toMatch(
      /^The DOCX would expand to 10737\d+ bytes, more than the limit of 209715200 bytes/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it("runs one conversion at a time by default, in order", async () => {
    const log = path.join(scratch, "order.log");
    writeFileSync(log, "");
    const slow = fakeConverter("slow", `echo start >> ${log}\nsleep 0.3\necho end >> ${log}\nexit 0`);
    const runs = [1, 2, 3].map(() => convertDocx(DOCX_FIXTURE, { sofficePath: slow }).catch(() => "failed"));
    expect(await Promise.all(runs)).toEqual(["failed", "failed", "failed"]);
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["start", "end", "start", "end", "start", "end"]);
  });

  const unshare = spawnSync("unshare", ["--net", "--map-root-user", "true"]).status === 0;
  it.skipIf(!unshare)("gives the converter no network, not even loopback", async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const probe = fakeConverter("net-probe", `if (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; then exit 0; fi\nexit 7`);
      // Sandboxed: the connection fails inside the namespace, the script says so with exit 7.
      expect(await badGateway(convertDocx(DOCX_FIXTURE, { sofficePath: probe, networkSandbox: "auto" }))).toBe(CONVERT_MESSAGES.crashed("exit code 7"));
      expect(connections).toBe(0);
      // The same script without the sandbox does connect: the test above can fail.
      expect(await badGateway(convertDocx(DOCX_FIXTURE, { sofficePath: probe, networkSandbox: "off" }))).toBe(CONVERT_MESSAGES.noOutput);
      await vi.waitFor(() => expect(connections).toBe(1));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("convertDocx through Gotenberg", () => {
  type TSeen = { path?: string; contentType?: string; body?: Buffer };
  async function fakeGotenberg(answer: (res: http.ServerResponse) => void) {
    const seen: TSeen = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        Object.assign(seen, { path: req.url, contentType: req.headers["content-type"], body: Buffer.concat(chunks) });
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const close = () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    };
    return { url, seen, close };
  }

  it("posts the DOCX to the LibreOffice route and returns the PDF it answers", async () => {
    const pdf = PDF.create();
    pdf.addPage({ size: "a4" });
    const answer = Buffer.from(await pdf.save());
    const gotenberg = await fakeGotenberg((res) => res.writeHead(200, { "content-type": "application/pdf" }).end(answer));
    try {
      const docx = readFileSync(DOCX_FIXTURE);
      const result = await convertDocx(docx, { gotenbergUrl: `${gotenberg.url}/` });
      expect(result.equals(answer)).toBe(true);
      expect(gotenberg.seen.path).toBe("/forms/libreoffice/convert");
      expect(gotenberg.seen.contentType).toMatch(/^multipart\/form-data; boundary=/);
      expect(gotenberg.seen.body?.includes('name="files"; filename="document.docx"')).toBe(true);
      expect(gotenberg.seen.body?.includes(docx)).toBe(true);
    } finally {
      await gotenberg.close();
    }
  });

  it("answers 502 when Gotenberg fails or answers something else than a PDF, 422 when it stays silent past the limit", async () => {
    const failing = await fakeGotenberg((res) => res.writeHead(503).end("busy"));
    const notPdf = await fakeGotenberg((res) => res.writeHead(200).end("<html>login</html>"));
    const silent = await fakeGotenberg(() => {});
    try {
      expect(await badGateway(convertDocx(DOCX_FIXTURE, { gotenbergUrl: failing.url }))).toBe(CONVERT_MESSAGES.crashed("Gotenberg answered 503"));
      expect(await badGateway(convertDocx(DOCX_FIXTURE, { gotenbergUrl: notPdf.url }))).toBe(CONVERT_MESSAGES.noOutput);
      expect(await unprocessable(convertDocx(DOCX_FIXTURE, { gotenbergUrl: silent.url, timeoutMs: 200 }))).toBe(CONVERT_MESSAGES.timeout(200));
    } finally {
      await Promise.all([failing.close(), notPdf.close(), silent.close()]);
    }
    // Nothing listens there any more.
    expect(await badGateway(convertDocx(DOCX_FIXTURE, { gotenbergUrl: failing.url }))).toBe(CONVERT_MESSAGES.crashed("Gotenberg is unreachable"));
  });
});
