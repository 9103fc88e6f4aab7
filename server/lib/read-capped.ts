/**
 * Reads a byte stream whole, or answers null as soon as more than `limitBytes` have arrived: reading stops
 * there and the stream is cancelled, so memory never holds more than the cap plus one chunk. No stream reads
 * as empty. The one capped reader of request bodies, signature images and converter output.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, limitBytes: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks, size);
}
