/**
 * Refuses a DOCX whose ZIP archive is built to exhaust whoever opens it (a "ZIP bomb"), before LibreOffice
 * ever sees it: a 1 MB upload that expands to 1 GiB would otherwise hold the single conversion slot until its
 * time limit. Called by the upload inspector (inspect-file.ts, in its child process) and again by
 * `convertDocx` before it starts the converter (for a DOCX stored before this check existed).
 *
 * What is read: the end-of-central-directory record (and the ZIP64 ones, if any), the central directory, and
 * each entry's local header — the archive's own declarations, nothing decompressed yet. Refused (422, with a
 * message naming the problem and the part):
 * - more than `maxEntries` parts, a split (multi-disk) archive, an encrypted part, a method other than stored
 *   or deflate, a name that appears twice;
 * - declared sizes that add up to more than `maxTotalBytes`, or a part larger than `ratioFloorBytes` that is
 *   compressed more than `maxRatio`:1;
 * - records that disagree: ZIP64 records against the classic ones, a local header against the central
 *   directory (name, method, sizes), a part that overlaps another or the directory (the "overlapping files"
 *   bomb, where thousands of entries share one compressed kernel).
 * Then, because declared sizes can lie consistently, each deflated part is really inflated — streaming, the
 * output counted and discarded, stopping one byte past its declared size — so the work is bounded by the
 * declared total (at most `maxTotalBytes`, ~1 s), never by what the file would like to expand to.
 */
import { createInflateRaw } from "node:zlib";
import { errors } from "@/server/lib/errors";

export type TDocxLimits = {
  /** Parts (files) in the archive. */
  maxEntries: number;
  /** The parts' declared uncompressed sizes added up. */
  maxTotalBytes: number;
  /** uncompressed ÷ compressed of one part, checked for parts larger than `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
};

export const DOCX_LIMITS: TDocxLimits = {
  maxEntries: 5000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

export const DOCX_ARCHIVE_MESSAGES = {
  damaged: (what: string) => `The DOCX is damaged: ${what}`,
  multiDisk: "The DOCX is a split (multi-disk) ZIP archive, which Word never writes",
  zip64Disagrees: "The DOCX's ZIP64 records disagree with its end-of-central-directory record (a crafted archive?)",
  tooManyParts: (max: number) => `The DOCX has more than ${max} parts (files inside its ZIP archive)`,
  tooLarge: (declared: number, max: number) =>
    `The DOCX would expand to ${declared} bytes, more than the limit of ${max} bytes (a ZIP bomb?); upload a smaller document or a PDF`,
  ratio: (name: string, ratio: number, max: number) =>
    `The DOCX part ${name} is compressed ${ratio}:1, more than ${max}:1 allows (a ZIP bomb?); upload a PDF instead`,
  expandsBeyond: (name: string) => `The DOCX part ${name} expands to more than its declared size (a ZIP bomb?)`,
  sizesDisagree: (name: string) => `The DOCX part ${name} declares different sizes in its local header and in the central directory`,
  headerDisagrees: (name: string) => `The DOCX part ${name} has a local header that does not match the central directory`,
  overlaps: (name: string) => `The DOCX part ${name} overlaps another part of the archive (a ZIP bomb?)`,
  duplicate: (name: string) => `The DOCX contains the part ${name} twice`,
  encrypted: (name: string) => `The DOCX part ${name} is encrypted`,
  method: (name: string, method: number) => `The DOCX part ${name} uses an unsupported compression method (${method})`,
} as const;

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

/**
 * The fixed fields of each record read, as [offset from the record's signature, width in bytes] (APPNOTE.TXT
 * 4.3), and the record's fixed size. One reader, `readRecord`, reads any of them.
 */
const EOCD = {
  size: 22,
  fields: { disk: [4, 2], cdDisk: [6, 2], onDisk: [8, 2], count: [10, 2], cdSize: [12, 4], cdOffset: [16, 4] },
} as const;
const ZIP64_LOCATOR = { size: 20, fields: { cdDisk: [4, 4], eocdAt: [8, 8], disks: [16, 4] } } as const;
const ZIP64_EOCD = {
  size: 56,
  fields: { disk: [16, 4], cdDisk: [20, 4], onDisk: [24, 8], count: [32, 8], cdSize: [40, 8], cdOffset: [48, 8] },
} as const;
const CENTRAL = {
  size: 46,
  fields: {
    flags: [8, 2],
    method: [10, 2],
    compressed: [20, 4],
    uncompressed: [24, 4],
    nameLength: [28, 2],
    extraLength: [30, 2],
    commentLength: [32, 2],
    disk: [34, 2],
    offset: [42, 4],
  },
} as const;
const LOCAL = {
  size: 30,
  fields: { flags: [6, 2], method: [8, 2], compressed: [18, 4], uncompressed: [22, 4], nameLength: [26, 2], extraLength: [28, 2] },
} as const;

type TFields = Record<string, readonly [offset: number, width: 2 | 4 | 8]>;
/** 2- and 4-byte fields as numbers; 8-byte ones as numbers, or null beyond what a file of this service could hold. */
type TRead<F extends TFields> = { [K in keyof F]: F[K][1] extends 8 ? number | null : number };

/** The fixed fields of the record at `at` (little-endian, as ZIP writes them); the caller checks it fits. */
function readRecord<F extends TFields>(bytes: Buffer, at: number, record: { fields: F }): TRead<F> {
  const read: Record<string, number | null> = {};
  for (const [name, [offset, width]] of Object.entries(record.fields)) {
    read[name] = width === 2 ? bytes.readUInt16LE(at + offset) : width === 4 ? bytes.readUInt32LE(at + offset) : safeNumber(bytes.readBigUInt64LE(at + offset));
  }
  return read as TRead<F>;
}

const MASK16 = 0xffff;
const MASK32 = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

type TEntry = {
  name: string;
  flags: number;
  method: number;
  compressed: number;
  uncompressed: number;
  offset: number;
  /** Where its compressed bytes start, once the local header is read. */
  dataStart: number;
};

const refuse = errors.unprocessable;

export async function checkDocxArchive(bytes: Buffer, limits: TDocxLimits = DOCX_LIMITS): Promise<void> {
  const { entries, cdOffset } = readCentralDirectory(bytes, limits);
  const total = entries.reduce((sum, e) => sum + e.uncompressed, 0);
  if (total > limits.maxTotalBytes) throw refuse(DOCX_ARCHIVE_MESSAGES.tooLarge(total, limits.maxTotalBytes));
  for (const entry of entries) {
    const ratio = entry.uncompressed / Math.max(entry.compressed, 1);
    if (entry.uncompressed > limits.ratioFloorBytes && ratio > limits.maxRatio) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.ratio(entry.name, Math.floor(ratio), limits.maxRatio));
    }
  }
  readLocalHeaders(bytes, entries, cdOffset);
  for (const entry of entries) {
    if (entry.method !== DEFLATED) continue;
    const inflated = await inflatedSize(bytes.subarray(entry.dataStart, entry.dataStart + entry.compressed), entry.uncompressed);
    if (inflated === "over") throw refuse(DOCX_ARCHIVE_MESSAGES.expandsBeyond(entry.name));
    if (inflated === "damaged" || inflated !== entry.uncompressed) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.damaged(`the part ${entry.name} does not inflate to its declared size`));
    }
  }
}

/** The central directory's entries, checked against the limits and against the end records. */
function readCentralDirectory(bytes: Buffer, limits: TDocxLimits): { entries: TEntry[]; cdOffset: number } {
  const eocd = lastIndexOf(bytes, SIG_EOCD, Math.max(0, bytes.length - EOCD.size - MASK16));
  if (eocd < 0) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("no end-of-central-directory record"));
  const { disk, cdDisk, onDisk, ...classic } = readRecord(bytes, eocd, EOCD);
  let { count, cdSize, cdOffset } = classic;
  const marked = count === MASK16 || onDisk === MASK16 || cdSize === MASK32 || cdOffset === MASK32;
  const locator = eocd - ZIP64_LOCATOR.size;
  const hasLocator = locator >= 0 && bytes.readUInt32LE(locator) === SIG_ZIP64_LOCATOR;
  if (marked && !hasLocator) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("ZIP64 sizes without a ZIP64 record"));
  if (hasLocator) {
    const { cdDisk: locatorDisk, eocdAt: at, disks } = readRecord(bytes, locator, ZIP64_LOCATOR);
    if (locatorDisk !== 0 || disks !== 1) throw refuse(DOCX_ARCHIVE_MESSAGES.multiDisk);
    if (at === null || at + ZIP64_EOCD.size > locator || bytes.readUInt32LE(at) !== SIG_ZIP64_EOCD) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its ZIP64 end record is missing"));
    }
    const z64 = readRecord(bytes, at, ZIP64_EOCD);
    if (z64.disk !== 0 || z64.cdDisk !== 0) throw refuse(DOCX_ARCHIVE_MESSAGES.multiDisk);
    // Every classic field is either the "see ZIP64" mask or the same value: two readers must see one archive.
    const agrees = (classic: number, mask: number, wide: number | null) => wide !== null && (classic === mask || classic === wide);
    if (
      !agrees(count, MASK16, z64.count) ||
      !agrees(onDisk, MASK16, z64.onDisk) ||
      !agrees(cdSize, MASK32, z64.cdSize) ||
      !agrees(cdOffset, MASK32, z64.cdOffset) ||
      z64.onDisk !== z64.count
    ) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.zip64Disagrees);
    }
    count = z64.count!;
    cdSize = z64.cdSize!;
    cdOffset = z64.cdOffset!;
  } else {
    if (disk !== 0 || cdDisk !== 0 || onDisk !== count) throw refuse(DOCX_ARCHIVE_MESSAGES.multiDisk);
  }
  if (count > limits.maxEntries) throw refuse(DOCX_ARCHIVE_MESSAGES.tooManyParts(limits.maxEntries));
  const cdEnd = cdOffset + cdSize;
  if (cdEnd > (hasLocator ? locator : eocd)) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its central directory lies outside the file"));

  const entries: TEntry[] = [];
  const names = new Set<string>();
  let at = cdOffset;
  while (at < cdEnd) {
    if (entries.length >= count) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its central directory holds more entries than its end record counts"));
    if (at + CENTRAL.size > cdEnd || bytes.readUInt32LE(at) !== SIG_CENTRAL) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its central directory is unreadable"));
    const { flags, method, nameLength, extraLength, commentLength, ...sizes } = readRecord(bytes, at, CENTRAL);
    const nameAt = at + CENTRAL.size;
    const end = nameAt + nameLength + extraLength + commentLength;
    if (end > cdEnd) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its central directory is unreadable"));
    const name = bytes.toString("utf8", nameAt, nameAt + nameLength);
    const wide = zip64Fields(bytes.subarray(nameAt + nameLength, nameAt + nameLength + extraLength), sizes);
    if (wide === "disagrees") throw refuse(DOCX_ARCHIVE_MESSAGES.zip64Disagrees);
    if (wide === "missing") throw refuse(DOCX_ARCHIVE_MESSAGES.damaged(`the part ${name} lacks its ZIP64 sizes`));
    const { uncompressed, compressed, offset } = wide;
    if (wide.disk !== 0) throw refuse(DOCX_ARCHIVE_MESSAGES.multiDisk);
    if (names.has(name)) throw refuse(DOCX_ARCHIVE_MESSAGES.duplicate(name));
    names.add(name);
    if (flags & 0x1) throw refuse(DOCX_ARCHIVE_MESSAGES.encrypted(name));
    if (method !== STORED && method !== DEFLATED) throw refuse(DOCX_ARCHIVE_MESSAGES.method(name, method));
    if (method === STORED && compressed !== uncompressed) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged(`the stored part ${name} declares two sizes`));
    entries.push({ name, flags, method, compressed, uncompressed, offset, dataStart: 0 });
    at = end;
  }
  if (entries.length !== count) throw refuse(DOCX_ARCHIVE_MESSAGES.damaged("its central directory holds fewer entries than its end record counts"));
  return { entries, cdOffset };
}

type TWide = { uncompressed: number; compressed: number; offset: number; disk: number };

/**
 * The ZIP64 extended information extra field (0x0001) holds, in this order, the 8-byte values of exactly those
 * classic fields that are masked (0xFFFFFFFF; the disk 0xFFFF). A masked field without its value is damage; a
 * value given for a field that is not masked must equal it (else two readers would see two sizes).
 */
function zip64Fields(extra: Buffer, classic: TWide): TWide | "missing" | "disagrees" {
  let field: Buffer | null = null;
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (at + 4 + size > extra.length) break;
    if (id === 0x0001) {
      if (field) return "disagrees";
      field = extra.subarray(at + 4, at + 4 + size);
    }
    at += 4 + size;
  }
  const result = { ...classic };
  let read = 0;
  const next = (width: 4 | 8): number | null => {
    if (!field || read + width > field.length) return null;
    const value = width === 8 ? safeNumber(field.readBigUInt64LE(read)) : field.readUInt32LE(read);
    read += width;
    return value;
  };
  for (const key of ["uncompressed", "compressed", "offset"] as const) {
    if (classic[key] === MASK32) {
      const value = next(8);
      if (value === null) return "missing";
      result[key] = value;
    }
  }
  if (classic.disk === MASK16) {
    const value = next(4);
    if (value === null) return "missing";
    result.disk = value;
  }
  // Unmasked fields given anyway (some writers always add the field) must repeat the classic values.
  if (field && read === 0) {
    for (const key of ["uncompressed", "compressed"] as const) {
      const value = next(8);
      if (value !== null && value !== classic[key]) return "disagrees";
    }
  }
  return result;
}

/** Checks each local header against its central entry, and that no part overlaps another or the directory. */
function readLocalHeaders(bytes: Buffer, entries: TEntry[], cdOffset: number): void {
  for (const entry of entries) {
    const at = entry.offset;
    if (at + LOCAL.size > cdOffset || bytes.readUInt32LE(at) !== SIG_LOCAL) throw refuse(DOCX_ARCHIVE_MESSAGES.headerDisagrees(entry.name));
    const { flags, method, nameLength, extraLength, compressed, uncompressed } = readRecord(bytes, at, LOCAL);
    const nameAt = at + LOCAL.size;
    const dataStart = nameAt + nameLength + extraLength;
    if (dataStart > cdOffset || method !== entry.method || (flags & 0x1) !== 0 || bytes.toString("utf8", nameAt, nameAt + nameLength) !== entry.name) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.headerDisagrees(entry.name));
    }
    const wide = zip64Fields(bytes.subarray(nameAt + nameLength, dataStart), { uncompressed, compressed, offset: 0, disk: 0 });
    if (wide === "missing" || wide === "disagrees") throw refuse(DOCX_ARCHIVE_MESSAGES.sizesDisagree(entry.name));
    // With a data descriptor (bit 3) the local sizes may be left zero; any size it does give must agree.
    const deferred = (flags & 0x8) !== 0;
    const same = (local: number, central: number) => local === central || (deferred && local === 0);
    if (!same(wide.compressed, entry.compressed) || !same(wide.uncompressed, entry.uncompressed)) {
      throw refuse(DOCX_ARCHIVE_MESSAGES.sizesDisagree(entry.name));
    }
    entry.dataStart = dataStart;
  }
  const byOffset = [...entries].sort((a, b) => a.offset - b.offset);
  let claimedUntil = 0;
  for (const entry of byOffset) {
    if (entry.offset < claimedUntil) throw refuse(DOCX_ARCHIVE_MESSAGES.overlaps(entry.name));
    claimedUntil = entry.dataStart + entry.compressed;
    if (claimedUntil > cdOffset) throw refuse(DOCX_ARCHIVE_MESSAGES.overlaps(entry.name));
  }
}

/** The inflated size of a raw deflate stream, or "over" as soon as it passes `declared` (the rest is never made). */
function inflatedSize(data: Buffer, declared: number): Promise<number | "over" | "damaged"> {
  return new Promise((resolve) => {
    const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
    let total = 0;
    let settled = false;
    const settle = (result: number | "over" | "damaged") => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(result);
    };
    inflate.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > declared) settle("over");
    });
    inflate.on("end", () => settle(total));
    inflate.on("error", () => settle("damaged"));
    inflate.end(data);
  });
}

function lastIndexOf(bytes: Buffer, signature: number, floor: number): number {
  for (let at = bytes.length - EOCD.size; at >= floor; at--) {
    if (bytes.readUInt32LE(at) === signature) return at;
  }
  return -1;
}

/** A 64-bit size as a number, or null beyond what a file of this service could hold. */
function safeNumber(value: bigint): number | null {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : null;
}
