/** The upload PUT called the way Next calls it, for the documents and packages tests (an HTTP-layer helper). */
import { uploadRoute } from "@/server/http/upload-route";

export function tokenOf(uploadUrl: string): string {
  return new URL(uploadUrl).pathname.split("/").pop()!;
}

/** PUT {uploadUrl} through the route handler, with a body of bytes or a stream. */
export async function putUpload(uploadUrl: string, body: Uint8Array | ReadableStream<Uint8Array> | null) {
  const req = new Request(uploadUrl, { method: "PUT", body, duplex: "half" } as RequestInit);
  const res = await uploadRoute(req, { params: Promise.resolve({ token: tokenOf(uploadUrl) }) });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; error?: string } };
}
