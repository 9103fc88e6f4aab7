/**
 * inspectInChild runs the inspector in a child process: same answers as in process for good and hostile
 * files, and what a hostile file can do to a parser stays in the child. Protects: the result and the
 * refusals cross the process boundary intact (kind and message); a child that does not answer within the time
 * limit is killed (a FIFO with no writer makes the read block for ever, so the hang is real, not a race) and
 * the caller gets 422; a child that runs out of heap is a 422, not a crash of this process; the child gets no
 * secrets in its environment.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDF } from "@libpdf/core";
import { afterAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/server/lib/errors";
import { INSPECT_MESSAGES } from "./inspect-file";
import { inspectInChild, type TChildInspectOptions } from "./inspect-in-child";

const dir = mkdtempSync(path.join(os.tmpdir(), "foliosign-inspect-child-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fileOf(bytes: Uint8Array): string {
  const file = path.join(dir, `f${n++}`);
  writeFileSync(file, bytes);
  return file;
}

async function refusal(file: string, options: TChildInspectOptions = {}) {
  const error = await inspectInChild(file, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { kind: (error as AppError).kind, message: (error as AppError).message };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("inspectInChild", () => {
  it("answers like the in-process inspector for a PDF and a DOCX", async () => {
    const pdf = PDF.create();
    pdf.addPage({ size: "a4" });
    pdf.addPage({ size: "letter" });
    const bytes = await pdf.save();
    expect(await inspectInChild(fileOf(bytes))).toEqual({
      kind: "pdf",
      pageCount: 2,
      pages: [
        { width: 595.28, height: 841.89 },
        { width: 612, height: 792 },
      ],
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
    });
    const docx = readFileSync(path.join(import.meta.dirname, "fixtures", "hello.docx"));
    expect(await inspectInChild(fileOf(docx))).toMatchObject({ kind: "docx", size: docx.length });
  });

  it("passes the inspector's refusals through with their kind and message", async () => {
    expect(await refusal(fileOf(Buffer.from("not a pdf at all")))).toEqual({ kind: "UNPROCESSABLE", message: INSPECT_MESSAGES.unknown });
    expect(await refusal(fileOf(Buffer.from("%PDF-1.7\n1 0 obj")))).toEqual({ kind: "UNPROCESSABLE", message: INSPECT_MESSAGES.pdfTruncated });
    expect(await refusal(fileOf(Buffer.alloc(5000, 0x25)), { maxBytes: 4096 })).toEqual({
      kind: "PAYLOAD_TOO_LARGE",
      message: INSPECT_MESSAGES.tooLarge(4096),
    });
  });

  it("kills a child that does not answer within the time limit and refuses with 422", async () => {
    // Opening a FIFO nobody writes to blocks the child's read for ever.
    const fifo = path.join(dir, "never-written");
    execFileSync("mkfifo", [fifo]);
    let pid = 0;
    const outcome = await refusal(fifo, { timeoutMs: 4000, onSpawn: (p) => (pid = p) });
    expect(outcome).toEqual({ kind: "UNPROCESSABLE", message: INSPECT_MESSAGES.tooSlow });
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5000 });
  });

  it("refuses with 422 when the child dies on its heap cap, and this process carries on", async () => {
    // A one-page PDF with 350,000 more objects (22 MB): the parser's object table needs more than a 32 MB heap
    // (measured: 200,000 objects need ~48 MB), not more than the default 512 MB (opening it with pdf-lib too, as
    // the seal rehearsal does, takes ~400 MB).
    const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>"];
    for (let i = 0; i < 350_000; i++) objects.push(`<< /A [${i} ${i}] >>`);
    let out = "%PDF-1.7\n";
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(out.length);
      out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    const xref = out.length;
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    const file = fileOf(Buffer.from(out, "latin1"));
    expect(await refusal(file, { maxHeapMb: 32 })).toEqual({ kind: "UNPROCESSABLE", message: INSPECT_MESSAGES.crashed });
    // The same file inspects fine with the default cap: the refusal was the cap's doing.
    expect(await inspectInChild(file)).toMatchObject({ kind: "pdf", pageCount: 1 });
  });
});
