import { crc32 } from "node:zlib";
import { errors } from "@/server/lib/errors";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const SIGNATURE_IMAGE_MAX_SIDE = 4000;
/** Bit depths allowed per PNG colour type (the PNG specification's table). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

function refuse(): never {
  throw errors.validation({ image: ["The signature image must be a PNG"] }, "The signature image must be a PNG");
}

/**
 * Checks that bytes are a well-formed PNG by their content, not their declared type: the signature, an IHDR
 * first with sane dimensions and a valid colour type, every chunk's CRC, image data present, and IEND last
 * with nothing after it. Sealing later embeds these bytes, so anything the PDF library could choke on (or
 * anything that is not an image at all) is refused here with a 422.
 */
export function sniffPng(bytes: Uint8Array): { width: number; height: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < SIGNATURE.length + 12 + 13 || !buf.subarray(0, 8).equals(SIGNATURE)) refuse();
  let offset = 8;
  let width = 0;
  let height = 0;
  let sawData = false;
  let first = true;
  while (offset + 12 <= buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString("latin1", offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > buf.length || !/^[A-Za-z]{4}$/.test(type)) refuse();
    const crc = buf.readUInt32BE(end - 4);
    if (crc32(buf.subarray(offset + 4, end - 4)) !== crc) refuse();
    if (first) {
      if (type !== "IHDR" || length !== 13) refuse();
      width = buf.readUInt32BE(offset + 8);
      height = buf.readUInt32BE(offset + 12);
      const depth = buf[offset + 16]!;
      const colourType = buf[offset + 17]!;
      if (width === 0 || height === 0 || width > SIGNATURE_IMAGE_MAX_SIDE || height > SIGNATURE_IMAGE_MAX_SIDE) refuse();
      if (!DEPTHS[colourType]?.includes(depth)) refuse();
      first = false;
    } else if (type === "IDAT") {
      sawData = true;
    } else if (type === "IEND") {
      if (end !== buf.length || !sawData) refuse();
      return { width, height };
    }
    offset = end;
  }
  return refuse();
}
