/**
 * What did the client upload? Decided by the bytes, never by the name or the declared content type.
 *
 * - A PDF (header `%PDF-` in the first 1024 bytes, `%%EOF` in the last 1024, opened by @libpdf/core, not
 *   encrypted, 1..maxPages pages, and one the sealer can process: `rehearseSeal` runs the seal's steps on it
 *   with the seal's own library calls, see server/pdf/rehearse-seal.ts) → `{ kind: "pdf", pageCount,
 *   pages, sha256 }`. A file the sealer cannot take would otherwise be accepted, signed by everyone, and then
 *   fail at every seal attempt.
 * - A DOCX (a ZIP whose central directory names `word/document.xml` and `[Content_Types].xml`) →
 *   `{ kind: "docx", sha256 }`.
 * - Anything else → `AppError("UNPROCESSABLE", <message for the API user>)`; over `maxBytes` →
 *   `AppError("PAYLOAD_TOO_LARGE")`. The messages are exported in `INSPECT_MESSAGES` so callers and tests
 *   match on them rather than on copies. We throw instead of returning a result because every caller turns a
 *   refusal into the same 4xx and none has anything else to do with it.
 *
 * Why @libpdf/core for inspection (measured against pdf-lib on hostile files, see inspect-file.test.ts):
 * it reads the real cross-reference table and falls back to a recovery scan, it tells an encrypted file from
 * a damaged one (pdf-lib only refuses with "is encrypted" or loads it blind), it walks the page tree with a
 * visited set (pdf-lib overflows the stack on a page tree that contains itself and counts the same page
 * object listed 20,000 times as 20,000 pages), and it is maintained (pdf-lib's last release is from 2021).
 * Its page geometry is not used: its `width` is the box's upper-right x (wrong for a box not at the origin)
 * and it ignores an inherited `/Rotate`, so `pageGeometry` below reads the boxes itself. The sealer stamps
 * with pdf-lib, though, so a file that only @libpdf/core can read is refused by the rehearsal
 * (`INSPECT_MESSAGES.pdfUnsealable`), as is one the two libraries count differently.
 *
 * Limits against hostile input: the bytes are capped while they stream (the caller passes the per-document
 * limit), the page count is capped, inheritance is followed at most `MAX_TREE_DEPTH` parents up, and the
 * ZIP reader only reads the central directory (nothing is decompressed, so no zip bomb). Parsing is
 * synchronous and holds the whole file: its cost is bounded by the byte cap, not by anything the file declares
 * (measured on the 2-core dev machine: 2,000 pages in 0.2 s; hostile 25 MB files 0.6–1.3 s; the rehearsal
 * adds about 1 ms a page, and ~9 s and ~400 MB for 22 MB made of 350,000 small objects). The upload paths
 * therefore run it in a child process on a temporary copy (`inspectInChild`, inspect-in-child.ts), under a time
 * limit and a heap cap; calling it directly is for bytes the server made itself (a converted PDF) and tests.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { PDF, PdfArray, PdfDict, PdfNumber, type PdfObject, type PdfRef } from "@libpdf/core";
import { AppError, errors } from "@/server/lib/errors";
import { checkDocxArchive } from "./check-docx-archive";
import { rehearseSeal } from "@/server/pdf/rehearse-seal";

export type TPageSize = { width: number; height: number };
export type TInspectedFile =
  { kind: "pdf"; pageCount: number; pages: TPageSize[]; sha256: string; size: number } | { kind: "docx"; sha256: string; size: number };
export type TInspectOptions = {
  /** Refuse (413) beyond this many bytes. Default 25 MB, the spec's per-document default. */
  maxBytes?: number;
  /** Refuse (422) a PDF with more pages. Default 2,000. */
  maxPages?: number;
};
/** A path on disk, the bytes, or a stream of them (a Node Readable or a web ReadableStream). */
export type TInspectSource = string | Uint8Array | AsyncIterable<Uint8Array>;

export const INSPECT_MESSAGES = {
  empty: "The file is empty",
  tooLarge: (maxBytes: number) => `The file is larger than the limit of ${maxBytes} bytes`,
  unknown: "The file is not a PDF or a DOCX document (its content was checked, not its name)",
  legacyOffice: "The file is a legacy or password-protected Office document; save it as an unprotected DOCX or PDF",
  pdfTruncated: "The PDF is incomplete (it does not end with %%EOF); upload the whole file again",
  pdfDamaged: "The PDF is damaged and cannot be opened",
  pdfEncrypted: "The PDF is password-protected or encrypted; upload an unprotected copy",
  pdfNoPages: "The PDF has no pages",
  pdfTooManyPages: (maxPages: number) => `The PDF has more than ${maxPages} pages`,
  pdfBadPageSize: (page: number) => `Page ${page} of the PDF has no valid size`,
  pdfUnsealable:
    "The PDF cannot be signed: its structure could not be processed (for example, a page tree that contains itself or lists a page twice); save or print it as a new PDF and upload that copy",
  zipNotDocx: "The file is a ZIP archive but not a DOCX document (it has no word/document.xml)",
  tooSlow: "The file could not be checked in time (it may be damaged or built to stall a reader); upload another copy",
  crashed: "The file could not be checked: the reader failed on it (it may be damaged or too complex); upload another copy",
} as const;

const DEFAULT_MAX_BYTES = 25 * 1024 * 1024;
const DEFAULT_MAX_PAGES = 2000;
const MAX_TREE_DEPTH = 64;
// PDF's own limit on a page side is 14,400 units (200 inches); anything larger is not a page a person signs.
const MAX_PAGE_SIDE = 14_400;
const MAX_ZIP_ENTRIES = 10_000;

const refuse = errors.unprocessable;

export async function inspectFile(source: TInspectSource, options: TInspectOptions = {}): Promise<TInspectedFile> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const { bytes, sha256 } = await readCapped(source, maxBytes);
  if (bytes.length === 0) throw refuse(INSPECT_MESSAGES.empty);

  if (indexOfAscii(bytes, "%PDF-", 0, 1024) >= 0) {
    return { kind: "pdf", ...(await inspectPdf(bytes, maxPages)), sha256, size: bytes.length };
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const names = zipEntryNames(bytes);
    if (!names.has("word/document.xml") || !names.has("[Content_Types].xml")) {
      throw refuse(INSPECT_MESSAGES.zipNotDocx);
    }
    // Declared sizes, ratios and records (check-docx-archive.ts): a ZIP bomb is refused here, not converted.
    await checkDocxArchive(bytes);
    return { kind: "docx", sha256, size: bytes.length };
  }
  // OLE compound file: .doc, .xls, and Office's own password-protected .docx all look like this.
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) throw refuse(INSPECT_MESSAGES.legacyOffice);
  throw refuse(INSPECT_MESSAGES.unknown);
}

async function readCapped(source: TInspectSource, maxBytes: number): Promise<{ bytes: Buffer; sha256: string }> {
  const hash = createHash("sha256");
  if (source instanceof Uint8Array) {
    if (source.length > maxBytes) throw errors.payloadTooLarge(INSPECT_MESSAGES.tooLarge(maxBytes));
    hash.update(source);
    return { bytes: Buffer.from(source.buffer, source.byteOffset, source.length), sha256: hash.digest("hex") };
  }
  const stream = typeof source === "string" ? createReadStream(source) : source;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      // Stop reading as soon as the cap is passed: memory never holds more than maxBytes plus one chunk.
      if (total > maxBytes) throw errors.payloadTooLarge(INSPECT_MESSAGES.tooLarge(maxBytes));
      hash.update(chunk);
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length));
    }
  } finally {
    if (typeof source === "string" && "destroy" in stream) stream.destroy();
  }
  return { bytes: Buffer.concat(chunks, total), sha256: hash.digest("hex") };
}

async function inspectPdf(bytes: Buffer, maxPages: number): Promise<{ pageCount: number; pages: TPageSize[] }> {
  // A viewer (and Acrobat's own rule) wants %%EOF near the end; an upload cut short is the usual way to get
  // a file without it, and a recovery parser would otherwise open what is left and silently lose pages.
  if (indexOfAscii(bytes, "%%EOF", Math.max(0, bytes.length - 1024), bytes.length) < 0) {
    throw refuse(hasEncryptKey(bytes) ? INSPECT_MESSAGES.pdfEncrypted : INSPECT_MESSAGES.pdfTruncated);
  }
  const { pageCount, pages } = await readPages(bytes, maxPages);
  // Only once @libpdf/core's copy of the document is out of scope (it holds as much memory as pdf-lib's).
  try {
    await rehearseSeal(bytes, pageCount);
  } catch {
    throw refuse(INSPECT_MESSAGES.pdfUnsealable);
  }
  return { pageCount, pages };
}

async function readPages(bytes: Buffer, maxPages: number): Promise<{ pageCount: number; pages: TPageSize[] }> {
  let pdf: PDF;
  try {
    pdf = await PDF.load(bytes);
  } catch {
    // A file encrypted with a user password fails to load (its objects cannot be decrypted), which the
    // library reports as a structural error; say what the user can act on instead.
    throw refuse(hasEncryptKey(bytes) ? INSPECT_MESSAGES.pdfEncrypted : INSPECT_MESSAGES.pdfDamaged);
  }
  // Refused even when it opens with an empty user password (owner-password restrictions): the seal later
  // rewrites and signs the file, which such a file forbids and which would have to re-encrypt every object.
  if (pdf.isEncrypted) throw refuse(INSPECT_MESSAGES.pdfEncrypted);
  try {
    const pageCount = pdf.getPageCount();
    if (pageCount === 0) throw refuse(INSPECT_MESSAGES.pdfNoPages);
    if (pageCount > maxPages) throw refuse(INSPECT_MESSAGES.pdfTooManyPages(maxPages));
    const resolve = (ref: PdfRef) => pdf.getObject(ref);
    const pages = pdf.getPages().map((page, index) => {
      const size = pageGeometry(page.dict, resolve);
      if (!size) throw refuse(INSPECT_MESSAGES.pdfBadPageSize(index + 1));
      return size;
    });
    return { pageCount, pages };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(INSPECT_MESSAGES.pdfDamaged);
  }
}

type TResolve = (ref: PdfRef) => PdfObject | null;

/**
 * The page as a viewer shows it: the CropBox clipped to the MediaBox (both inheritable, normalised so either
 * corner may come first), then turned by the inheritable /Rotate. Rounded to 1/100 point. Null when the page
 * has no usable box.
 */
function pageGeometry(page: PdfDict, resolve: TResolve): TPageSize | null {
  const media = toBox(inherited(page, "MediaBox", resolve), resolve);
  if (!media) return null;
  const crop = toBox(inherited(page, "CropBox", resolve), resolve);
  const box = crop ? (intersect(media, crop) ?? media) : media;
  const width = round(box[2] - box[0]);
  const height = round(box[3] - box[1]);
  if (!(width > 0 && height > 0 && width <= MAX_PAGE_SIDE && height <= MAX_PAGE_SIDE)) return null;
  const rotate = inherited(page, "Rotate", resolve);
  const degrees = rotate instanceof PdfNumber ? (((Math.round(rotate.value / 90) * 90) % 360) + 360) % 360 : 0;
  return degrees === 90 || degrees === 270 ? { width: height, height: width } : { width, height };
}

function inherited(page: PdfDict, key: string, resolve: TResolve): PdfObject | undefined {
  let node: PdfDict | undefined = page;
  for (let depth = 0; node && depth < MAX_TREE_DEPTH; depth++) {
    const value = node.get(key, resolve);
    if (value !== undefined) return value;
    const parent = node.get("Parent", resolve);
    node = parent instanceof PdfDict && parent !== node ? parent : undefined;
  }
  return undefined;
}

type TBox = [number, number, number, number];

function toBox(value: PdfObject | undefined, resolve: TResolve): TBox | null {
  if (!(value instanceof PdfArray) || value.length !== 4) return null;
  const n = [0, 1, 2, 3].map((i) => value.at(i, resolve));
  if (!n.every((x): x is PdfNumber => x instanceof PdfNumber && Number.isFinite(x.value))) return null;
  const [x1, y1, x2, y2] = n.map((x) => x.value) as TBox;
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

function intersect(a: TBox, b: TBox): TBox | null {
  const box: TBox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[2] > box[0] && box[3] > box[1] ? box : null;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** `/Encrypt` as a dictionary key (not `/EncryptMetadata`) anywhere in the file: only used to word a refusal. */
function hasEncryptKey(bytes: Buffer): boolean {
  for (let at = bytes.indexOf("/Encrypt"); at >= 0; at = bytes.indexOf("/Encrypt", at + 8)) {
    const next = bytes[at + 8];
    if (next === undefined || !/[A-Za-z0-9]/.test(String.fromCharCode(next))) return true;
  }
  return false;
}

/**
 * Names in a ZIP's central directory. Reads only the directory (found through the end-of-central-directory
 * record in the last 64 KiB), bounded by the buffer and MAX_ZIP_ENTRIES; an unreadable directory yields no
 * names, which the caller reports as "not a DOCX".
 */
function zipEntryNames(bytes: Buffer): Set<string> {
  const names = new Set<string>();
  const eocd = lastIndexOfSignature(bytes, 0x06054b50, Math.max(0, bytes.length - 22 - 0xffff));
  if (eocd < 0 || eocd + 22 > bytes.length) return names;
  const entries = Math.min(bytes.readUInt16LE(eocd + 10), MAX_ZIP_ENTRIES);
  let at = bytes.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) break;
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    if (at + 46 + nameLength > bytes.length) break;
    names.add(bytes.toString("utf8", at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

function lastIndexOfSignature(bytes: Buffer, signature: number, floor: number): number {
  for (let at = bytes.length - 22; at >= floor; at--) {
    if (bytes.readUInt32LE(at) === signature) return at;
  }
  return -1;
}

function indexOfAscii(bytes: Buffer, needle: string, from: number, to: number): number {
  return bytes.subarray(0, to).indexOf(needle, from, "latin1");
}

function startsWith(bytes: Buffer, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}
