/**
 * ZIP archives written record by record, for the DOCX bomb tests: every field a reader trusts can be set to a
 * lie (local header against central directory, ZIP64 records, offsets), which no ZIP library will write. And
 * `zerosDeflated(n)`: a raw deflate stream that inflates to n MiB of zeros, made from one 1 MiB block repeated
 * (blocks ended by a full flush are self-contained and byte-aligned, so they concatenate) — a 1 GiB bomb is
 * ~1 MB of bytes and never exists expanded.
 */
import { constants, deflateRawSync } from "node:zlib";

export type TZipPart = {
  name: string;
  /** The bytes as stored in the archive (already deflated for method 8). */
  data: Buffer;
  /** What the part declares it expands to (defaults to data.length). */
  uncompressed?: number;
  method?: number;
  flags?: number;
  crc?: number;
  /** Overrides written into the local header only. */
  local?: { name?: string; compressed?: number; uncompressed?: number; method?: number; extra?: Buffer };
  /** Overrides written into the central directory only. */
  central?: { compressed?: number; uncompressed?: number; offset?: number; extra?: Buffer };
};

export type TZipOptions = {
  /** Overrides of the end-of-central-directory record's fields. */
  eocd?: { disk?: number; cdDisk?: number; onDisk?: number; count?: number; cdSize?: number; cdOffset?: number };
  /** Write ZIP64 end records (and a locator) with these values; `true` → the real ones. */
  zip64?: true | { count?: number; cdSize?: number; cdOffset?: number };
};

export function zipRecords(parts: TZipPart[], options: TZipOptions = {}): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const method = part.method ?? 0;
    const uncompressed = part.uncompressed ?? part.data.length;
    const localName = Buffer.from(part.local?.name ?? part.name, "utf8");
    const localExtra = part.local?.extra ?? Buffer.alloc(0);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(part.flags ?? 0, 6);
    header.writeUInt16LE(part.local?.method ?? method, 8);
    header.writeUInt32LE(part.crc ?? 0, 14);
    header.writeUInt32LE(part.local?.compressed ?? part.data.length, 18);
    header.writeUInt32LE(part.local?.uncompressed ?? uncompressed, 22);
    header.writeUInt16LE(localName.length, 26);
    header.writeUInt16LE(localExtra.length, 28);
    chunks.push(header, localName, localExtra, part.data);

    const name = Buffer.from(part.name, "utf8");
    const extra = part.central?.extra ?? Buffer.alloc(0);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(part.flags ?? 0, 8);
    entry.writeUInt16LE(method, 10);
    entry.writeUInt32LE(part.crc ?? 0, 16);
    entry.writeUInt32LE(part.central?.compressed ?? part.data.length, 20);
    entry.writeUInt32LE(part.central?.uncompressed ?? uncompressed, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt16LE(extra.length, 30);
    entry.writeUInt32LE(part.central?.offset ?? offset, 42);
    central.push(entry, name, extra);
    offset += header.length + localName.length + localExtra.length + part.data.length;
  }
  const cd = Buffer.concat(central);
  const cdOffset = offset;
  chunks.push(cd);
  if (options.zip64) {
    const wide = options.zip64 === true ? {} : options.zip64;
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(wide.count ?? parts.length), 24);
    record.writeBigUInt64LE(BigInt(wide.count ?? parts.length), 32);
    record.writeBigUInt64LE(BigInt(wide.cdSize ?? cd.length), 40);
    record.writeBigUInt64LE(BigInt(wide.cdOffset ?? cdOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(cdOffset + cd.length), 8);
    locator.writeUInt32LE(1, 16);
    chunks.push(record, locator);
  }
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(options.eocd?.disk ?? 0, 4);
  eocd.writeUInt16LE(options.eocd?.cdDisk ?? 0, 6);
  eocd.writeUInt16LE(options.eocd?.onDisk ?? options.eocd?.count ?? parts.length, 8);
  eocd.writeUInt16LE(options.eocd?.count ?? parts.length, 10);
  eocd.writeUInt32LE(options.eocd?.cdSize ?? cd.length, 12);
  eocd.writeUInt32LE(options.eocd?.cdOffset ?? cdOffset, 16);
  chunks.push(eocd);
  return Buffer.concat(chunks);
}

/** A deflated part from its content. */
export function deflatedPart(name: string, content: string | Buffer): TZipPart {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  return { name, data: deflateRawSync(bytes), uncompressed: bytes.length, method: 8 };
}

/** A raw deflate stream that inflates to `mebibytes` MiB of zeros (about 1 KB per MiB). */
export function zerosDeflated(mebibytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  // A final fixed-Huffman block holding only its end code: BFINAL=1, BTYPE=01, then seven zero bits.
  return Buffer.concat([...Array<Buffer>(mebibytes).fill(block), Buffer.from([0x03, 0x00])]);
}

/** A ZIP64 extended-information extra field (0x0001) with these 8-byte values, in the order given. */
export function zip64Extra(...values: number[]): Buffer {
  const field = Buffer.alloc(4 + values.length * 8);
  field.writeUInt16LE(0x0001, 0);
  field.writeUInt16LE(values.length * 8, 2);
  values.forEach((v, i) => field.writeBigUInt64LE(BigInt(v), 4 + i * 8));
  return field;
}

/** The two parts that make a ZIP a DOCX for the inspector, plus `document.xml` as given. */
export function docxParts(document: TZipPart): TZipPart[] {
  return [
    deflatedPart(
      "[Content_Types].xml",
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    document,
  ];
}
