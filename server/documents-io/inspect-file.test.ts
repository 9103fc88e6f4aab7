/**
 * inspectFile decides by content and refuses hostile uploads with the message an API user will read.
 * Protects: page sizes as a viewer shows them (A4, Letter, /Rotate on the page or inherited, CropBox off the
 * origin), the streamed SHA-256, and that every hostile file (renamed PNG or text, truncated, damaged,
 * encrypted, no pages, too many pages, a page tree containing itself, a looping xref, deep nesting, a ZIP
 * that is not a DOCX, an oversized stream) ends in an AppError — never a crash or a hang. The full table,
 * through the upload route and the child process, is hostile-files.test.ts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { PDF } from "@libpdf/core";
import { describe, expect, it } from "vitest";
import { AppError, type TErrorKind } from "@/server/lib/errors";
import { INSPECT_MESSAGES, inspectFile } from "./inspect-file";
import { rawPdf } from "./test-support/raw-pdf";

const A4 = { width: 595.28, height: 841.89 };
const LETTER = { width: 612, height: 792 };
const DOCX_FIXTURE = path.join(import.meta.dirname, "fixtures", "hello.docx");

async function makePdf(build: (pdf: PDF) => void): Promise<Uint8Array> {
  const pdf = PDF.create();
  build(pdf);
  return pdf.save();
}

/** A stored (uncompressed) ZIP, enough for OOXML-shaped fixtures. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function refusal(source: Parameters<typeof inspectFile>[0], options = {}): Promise<{ kind: TErrorKind; message: string }> {
  const error = await inspectFile(source, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const { kind, message } = error as AppError;
  return { kind, message };
}

const unprocessable = (message: string) => ({ kind: "UNPROCESSABLE", message });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("inspectFile: PDFs", () => {
  it("reports A4, Letter and a page turned by /Rotate, with the SHA-256 of the bytes", async () => {
    const bytes = await makePdf((pdf) => {
      pdf.addPage({ size: "a4" });
      pdf.addPage({ size: "letter" });
      pdf.addPage({ size: "a4", rotate: 90 });
    });
    const result = await inspectFile(bytes);
    expect(result).toEqual({
      kind: "pdf",
      pageCount: 3,
      pages: [A4, LETTER, { width: A4.height, height: A4.width }],
      sha256: sha256(bytes),
      size: bytes.length,
    });
  });

  it("honours an inherited /Rotate and MediaBox, and a CropBox away from the origin", async () => {
    const bytes = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /Rotate 270 /MediaBox [0 0 612 792] >>",
      "<< /Type /Page /Parent 2 0 R >>",
      "<< /Type /Page /Parent 2 0 R /Rotate 0 /MediaBox [0 792 612 0] /CropBox [100 200 400 600] >>",
    ]);
    const result = await inspectFile(bytes);
    expect(result.kind === "pdf" && result.pages).toEqual([
      { width: 792, height: 612 },
      { width: 300, height: 400 },
    ]);
  });

  it("hashes a stream the same as the bytes, and reads from a path", async () => {
    const bytes = Buffer.from(await makePdf((pdf) => void pdf.addPage({ size: "letter" })));
    const chunks = [bytes.subarray(0, 100), bytes.subarray(100, 300), bytes.subarray(300)];
    const fromStream = await inspectFile(Readable.from(chunks));
    expect(fromStream.sha256).toBe(sha256(bytes));
    const fromPath = await inspectFile(DOCX_FIXTURE);
    expect(fromPath.sha256).toBe(sha256(readFileSync(DOCX_FIXTURE)));
  });

  it("refuses a PNG and a text file renamed .pdf, and an empty file", async () => {
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d4944415478da63f8cfc0f01f0005000200a5f1a8e40000000049454e44ae426082",
      "hex",
    );
    expect(await refusal(png)).toEqual(unprocessable(INSPECT_MESSAGES.unknown));
    expect(await refusal(Buffer.from("Dear customer, please sign.\n"))).toEqual(unprocessable(INSPECT_MESSAGES.unknown));
    expect(await refusal(Buffer.alloc(0))).toEqual(unprocessable(INSPECT_MESSAGES.empty));
  });

  it("refuses a truncated PDF and a damaged one", async () => {
    const bytes = await makePdf((pdf) => void pdf.addPage({ size: "a4" }));
    const half = bytes.subarray(0, Math.floor(bytes.length / 2));
    expect(await refusal(half)).toEqual(unprocessable(INSPECT_MESSAGES.pdfTruncated));
    const junk = Buffer.from("%PDF-1.7\n" + "garbage ".repeat(200) + "\n%%EOF\n");
    expect(await refusal(junk)).toEqual(unprocessable(INSPECT_MESSAGES.pdfDamaged));
  });

  it("refuses a password-protected PDF and one encrypted with only an owner password", async () => {
    for (const protection of [{ userPassword: "open-me", ownerPassword: "owner" }, { ownerPassword: "owner" }]) {
      const pdf = PDF.create();
      pdf.addPage({ size: "a4" });
      pdf.setProtection(protection);
      const bytes = await pdf.save();
      expect(await refusal(bytes)).toEqual(unprocessable(INSPECT_MESSAGES.pdfEncrypted));
    }
  });

  it("refuses a PDF with no pages, too many pages, or a page with no size", async () => {
    const empty = rawPdf(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"]);
    expect(await refusal(empty)).toEqual(unprocessable(INSPECT_MESSAGES.pdfNoPages));

    const five = await makePdf((pdf) => {
      for (let i = 0; i < 5; i++) pdf.addPage({ size: "a4" });
    });
    expect(await refusal(five, { maxPages: 4 })).toEqual(unprocessable(INSPECT_MESSAGES.pdfTooManyPages(4)));
    expect((await inspectFile(five, { maxPages: 5 })).kind).toBe("pdf");

    const flat = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 0 0] >>",
    ]);
    expect(await refusal(flat)).toEqual(unprocessable(INSPECT_MESSAGES.pdfBadPageSize(1)));
  });

  it("counts real pages, not a page tree's claims (a huge /Count), and refuses a tree the sealer cannot walk", async () => {
    const claims = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]);
    expect(await inspectFile(claims)).toMatchObject({ kind: "pdf", pageCount: 1, pages: [LETTER] });
    // @libpdf/core reads one page here (it walks the tree with a visited set), but pdf-lib, which stamps the
    // values when sealing, overflows its stack on it: refused, as the seal could never succeed (issue 24).
    const cyclic = rawPdf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [2 0 R 3 0 R 3 0 R] /Count 1000000000 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    ]);
    expect(await refusal(cyclic)).toEqual(unprocessable(INSPECT_MESSAGES.pdfUnsealable));
  });

  it("refuses a looping xref chain and absurd nesting without hanging or crashing", async () => {
    const loop = Buffer.from("%PDF-1.4\nxref\n0 1\n0000000000 65535 f \ntrailer << /Size 1 /Prev 9 >>\nstartxref\n9\n%%EOF\n", "latin1");
    expect(await refusal(loop)).toEqual(unprocessable(INSPECT_MESSAGES.pdfDamaged));
    const nested = Buffer.from(`%PDF-1.4\n1 0 obj ${"[".repeat(200_000)} endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
    expect(await refusal(nested)).toEqual(unprocessable(INSPECT_MESSAGES.pdfDamaged));

    // A page tree 50,000 levels deep: either opened or refused, but answered with an AppError or a result.
    const objects = ["<< /Type /Catalog /Pages 2 0 R >>"];
    for (let i = 2; i < 50_002; i++) objects.push(`<< /Type /Pages /Kids [${i + 1} 0 R] /Count 1 >>`);
    objects.push("<< /Type /Page /MediaBox [0 0 10 10] >>");
    const outcome = await inspectFile(rawPdf(objects)).catch((e: unknown) => e);
    expect(outcome instanceof AppError || (outcome as { kind?: string }).kind === "pdf").toBe(true);
  });

  it("refuses a stream larger than the limit with 413, before reading it all", async () => {
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1024;
        yield Buffer.alloc(1024, 0x25);
      }
    }
    expect(await refusal(endless(), { maxBytes: 10_000 })).toEqual({
      kind: "PAYLOAD_TOO_LARGE",
      message: INSPECT_MESSAGES.tooLarge(10_000),
    });
    expect(produced).toBeLessThanOrEqual(11 * 1024);
  });
});

describe("inspectFile: DOCX and other packages", () => {
  it("recognises a real DOCX (written by LibreOffice) whatever its name", async () => {
    const bytes = readFileSync(DOCX_FIXTURE);
    expect(await inspectFile(bytes)).toEqual({ kind: "docx", sha256: sha256(bytes), size: bytes.length });
  });

  it("recognises a minimal OOXML package and refuses a ZIP that is not a DOCX", async () => {
    const docx = zip({ "[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document/>" });
    expect((await inspectFile(docx)).kind).toBe("docx");
    const xlsx = zip({ "[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>" });
    expect(await refusal(xlsx)).toEqual(unprocessable(INSPECT_MESSAGES.zipNotDocx));
    const broken = Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(100, 0xff)]);
    expect(await refusal(broken)).toEqual(unprocessable(INSPECT_MESSAGES.zipNotDocx));
  });

  it("refuses a legacy or password-protected Office file with a message saying so", async () => {
    const ole = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(512)]);
    expect(await refusal(ole)).toEqual(unprocessable(INSPECT_MESSAGES.legacyOffice));
  });
});
