import { errors } from "@/server/lib/errors";

/**
 * Reads a raw (non-JSON) request body with a byte cap: 413 as soon as it passes `limitBytes` (or when the
 * declared length already does), without reading the rest; 400 when it is empty.
 */
export async function readBytesBody(req: Request, limitBytes: number, tooLarge = "The file is too large"): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limitBytes) throw errors.payloadTooLarge(tooLarge);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    const reader = req.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => {});
        throw errors.payloadTooLarge(tooLarge);
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw errors.badRequest("Choose a PDF file to check");
  return new Uint8Array(Buffer.concat(chunks));
}
