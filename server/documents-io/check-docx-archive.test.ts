/**
 * DOCX bombs are refused by the inspector (422, a message naming the problem and the part) from the archive's
 * own records, before anything expands: the 1 GiB bomb of issue 24 (1 MB of bytes, generated here, never
 * written out expanded), a part compressed beyond 100:1, a part whose declared size lies, records that
 * disagree (local header against central directory, ZIP64 against the classic end record), overlapping parts,
 * too many parts, duplicates, encryption and unknown methods. A real DOCX and a consistent ZIP64 archive pass.
 * The upload route's answer to a bomb is in server/domain/documents/upload-docx-bomb.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError } from "@/server/lib/errors";
import { checkDocxArchive, DOCX_ARCHIVE_MESSAGES, DOCX_LIMITS } from "./check-docx-archive";
import { inspectFile } from "./inspect-file";
import { deflatedPart, docxParts, zerosDeflated, zip64Extra, zipRecords, type TZipPart } from "./test-support/zip-records";

const HELLO_DOCX = readFileSync(path.join(import.meta.dirname, "fixtures", "hello.docx"));
const MiB = 1024 * 1024;
const XML = '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>';

async function refusal(bytes: Buffer): Promise<string> {
  const error = await inspectFile(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ kind: "UNPROCESSABLE", status: 422 });
  return (error as AppError).message;
}

const docx = (document: TZipPart, options?: Parameters<typeof zipRecords>[1]) => zipRecords(docxParts(document), options);

describe("checkDocxArchive", () => {
  it("accepts a real DOCX, and a consistent one written with ZIP64 records", async () => {
    expect(await inspectFile(HELLO_DOCX)).toMatchObject({ kind: "docx", size: HELLO_DOCX.length });
    const part = deflatedPart("word/document.xml", XML);
    const widePart = {
      ...part,
      central: { compressed: 0xffffffff, uncompressed: 0xffffffff, extra: zip64Extra(XML.length, part.data.length) },
      local: { compressed: 0xffffffff, uncompressed: 0xffffffff, extra: zip64Extra(XML.length, part.data.length) },
    };
    // ZIP64 end records beside a classic one holding the same values, and sizes only in ZIP64 fields.
    expect(await inspectFile(docx(widePart, { zip64: true }))).toMatchObject({ kind: "docx" });
    // The classic end record masked (the inspector's DOCX sniff reads only classic records, so checked directly).
    await expect(checkDocxArchive(docx(widePart, { zip64: true, eocd: { count: 0xffff, cdSize: 0xffffffff, cdOffset: 0xffffffff } }))).resolves.toBeUndefined();
  });

  it("refuses the 1 GiB bomb of a 1 MB file from its declared size, without expanding it", async () => {
    const bomb = docx({ name: "word/document.xml", data: zerosDeflated(1024), uncompressed: 1024 * MiB, method: 8 });
    expect(bomb.length).toBeLessThan(1.1 * MiB);
    const declared = 1024 * MiB + docxParts({ name: "", data: Buffer.alloc(0) })[0]!.uncompressed!;
    expect(await refusal(bomb)).toBe(DOCX_ARCHIVE_MESSAGES.tooLarge(declared, DOCX_LIMITS.maxTotalBytes));
    expect(DOCX_ARCHIVE_MESSAGES.tooLarge(declared, DOCX_LIMITS.maxTotalBytes)).toBe(
      `The DOCX would expand to ${declared} bytes, more than the limit of 209715200 bytes (a ZIP bomb?); upload a smaller document or a PDF`,
    );
  });

  it("refuses a part compressed beyond 100:1 once it is over 1 MiB, and allows it below", async () => {
    const data = zerosDeflated(50);
    const ratio = Math.floor((50 * MiB) / data.length);
    expect(ratio).toBeGreaterThan(1000);
    expect(await refusal(docx({ name: "word/document.xml", data, uncompressed: 50 * MiB, method: 8 }))).toBe(
      DOCX_ARCHIVE_MESSAGES.ratio("word/document.xml", ratio, 100),
    );
    // 1 MiB of zeros is ~1,000:1 too, but small enough to be harmless.
    expect(await inspectFile(docx({ name: "word/document.xml", data: zerosDeflated(1), uncompressed: MiB, method: 8 }))).toMatchObject({ kind: "docx" });
  });

  it("refuses a part that inflates past its declared size, stopping there", async () => {
    // Both headers declare 1 MiB (too small for the ratio check to apply); the stream holds 150 MiB of zeros.
    const lying = { name: "word/document.xml", data: zerosDeflated(150), uncompressed: MiB, method: 8 };
    expect(await refusal(docx(lying))).toBe(DOCX_ARCHIVE_MESSAGES.expandsBeyond("word/document.xml"));
    expect(DOCX_ARCHIVE_MESSAGES.expandsBeyond("word/document.xml")).toBe(
      "The DOCX part word/document.xml expands to more than its declared size (a ZIP bomb?)",
    );
    // One that inflates to less than it declares is damaged.
    expect(await refusal(docx({ ...lying, uncompressed: 151 * MiB - 1, data: zerosDeflated(1) }))).toBe(
      DOCX_ARCHIVE_MESSAGES.ratio("word/document.xml", Math.floor((151 * MiB - 1) / zerosDeflated(1).length), 100),
    );
    expect(await refusal(docx({ ...lying, uncompressed: 2000, data: zerosDeflated(0) }))).toBe(
      DOCX_ARCHIVE_MESSAGES.damaged("the part word/document.xml does not inflate to its declared size"),
    );
  });

  it("refuses a local header whose sizes, name or method disagree with the central directory", async () => {
    const part = deflatedPart("word/document.xml", XML);
    expect(await refusal(docx({ ...part, local: { uncompressed: 10 } }))).toBe(DOCX_ARCHIVE_MESSAGES.sizesDisagree("word/document.xml"));
    expect(await refusal(docx({ ...part, local: { compressed: part.data.length + 1 } }))).toBe(DOCX_ARCHIVE_MESSAGES.sizesDisagree("word/document.xml"));
    expect(await refusal(docx({ ...part, local: { name: "word/other.xml" } }))).toBe(DOCX_ARCHIVE_MESSAGES.headerDisagrees("word/document.xml"));
    expect(await refusal(docx({ ...part, local: { method: 0 } }))).toBe(DOCX_ARCHIVE_MESSAGES.headerDisagrees("word/document.xml"));
    // With a data descriptor (flag bit 3) the local sizes may be zero; the central ones count.
    expect(await inspectFile(docx({ ...part, flags: 0x8, local: { compressed: 0, uncompressed: 0 } }))).toMatchObject({ kind: "docx" });
  });

  it("refuses ZIP64 records that disagree with the classic ones", async () => {
    const part = deflatedPart("word/document.xml", XML);
    // The end record counts 2 parts, the ZIP64 one 3.
    expect(await refusal(docx(part, { zip64: { count: 3 } }))).toBe(DOCX_ARCHIVE_MESSAGES.zip64Disagrees);
    // A central entry that gives an unmasked size again, differently, in its ZIP64 field.
    expect(await refusal(docx({ ...part, central: { extra: zip64Extra(1024 * MiB, part.data.length) } }))).toBe(DOCX_ARCHIVE_MESSAGES.zip64Disagrees);
    // A masked size without its ZIP64 value.
    expect(await refusal(docx({ ...part, central: { uncompressed: 0xffffffff } }))).toBe(
      DOCX_ARCHIVE_MESSAGES.damaged("the part word/document.xml lacks its ZIP64 sizes"),
    );
    // A masked end record without ZIP64 records.
    expect(await refusal(docx(part, { eocd: { count: 0xffff } }))).toBe(DOCX_ARCHIVE_MESSAGES.damaged("ZIP64 sizes without a ZIP64 record"));
  });

  it("refuses parts that overlap (many entries sharing one compressed kernel)", async () => {
    const kernel = deflatedPart("word/document.xml", XML);
    const first = zipRecords(docxParts(kernel));
    // A third central entry pointing at another part's local header, under its own name.
    const overlap = zipRecords([...docxParts(kernel), { ...deflatedPart("word/header1.xml", XML), central: { offset: 0 } }]);
    expect(await inspectFile(first)).toMatchObject({ kind: "docx" });
    expect(await refusal(overlap)).toBe(DOCX_ARCHIVE_MESSAGES.headerDisagrees("word/header1.xml"));
    // Same name in the local header it points at is a duplicate of another entry's header: overlap.
    const parts = docxParts(kernel);
    const localOffset = 30 + "[Content_Types].xml".length + parts[0]!.data.length;
    const shared = zipRecords([...parts, { ...kernel, name: "word/document.xml", central: { offset: localOffset } }]);
    expect(await refusal(shared)).toBe(DOCX_ARCHIVE_MESSAGES.duplicate("word/document.xml"));
    // A part whose declared compressed size swallows the next part's header.
    const swallow = zipRecords([
      { ...deflatedPart("[Content_Types].xml", XML), central: { compressed: 200 }, local: { compressed: 200 } },
      deflatedPart("word/document.xml", XML),
    ]);
    expect(await refusal(swallow)).toBe(DOCX_ARCHIVE_MESSAGES.overlaps("word/document.xml"));
  });

  it("refuses too many parts, a part named twice, encryption, an unknown method and a split archive", async () => {
    const many = Array.from({ length: 5001 }, (_, i) => ({ name: `word/media/p${i}.xml`, data: Buffer.from("x") }));
    expect(await refusal(zipRecords([...docxParts(deflatedPart("word/document.xml", XML)), ...many]))).toBe(DOCX_ARCHIVE_MESSAGES.tooManyParts(5000));
    const part = deflatedPart("word/document.xml", XML);
    expect(await refusal(zipRecords([...docxParts(part), part]))).toBe(DOCX_ARCHIVE_MESSAGES.duplicate("word/document.xml"));
    expect(await refusal(docx({ ...part, flags: 0x1 }))).toBe(DOCX_ARCHIVE_MESSAGES.encrypted("word/document.xml"));
    expect(await refusal(docx({ ...part, method: 12 }))).toBe(DOCX_ARCHIVE_MESSAGES.method("word/document.xml", 12));
    expect(await refusal(docx(part, { eocd: { disk: 1 } }))).toBe(DOCX_ARCHIVE_MESSAGES.multiDisk);
  });
});
