/**
 * `PUT /uploads/{token}` — the target of upload URLs. Not an operation of either door: no API key, no
 * session; the single-use token in the path is the credential (server/domain/documents/receive-upload.ts).
 * The body is handed over as a stream; nothing here reads or buffers it.
 */
import { randomUUID } from "node:crypto";
import { getDb } from "@/server/db/client";
import { receiveUpload } from "@/server/domain/documents/receive-upload";
import { logger } from "@/server/lib/logger";
import { errorResponse, json } from "./errors";
import type { TRouteContext } from "./route";

export async function uploadRoute(req: Request, context: TRouteContext): Promise<Response> {
  const started = performance.now();
  const requestId = randomUUID();
  const headers = { "X-Request-Id": requestId };
  let response: Response;
  try {
    const { token } = await context.params;
    const document = await receiveUpload(await getDb(), { token: typeof token === "string" ? token : "", body: req.body });
    response = json({ data: document }, 200, headers);
  } catch (err) {
    const mapped = errorResponse(err, headers);
    // The path holds the token: never logged.
    if (mapped.unexpected) logger().error({ err, requestId, path: "/uploads/[token]" }, "unhandled error");
    response = mapped.response;
  }
  logger().info(
    { requestId, door: "upload", method: req.method, path: "/uploads/[token]", status: response.status, durationMs: Math.round(performance.now() - started) },
    "upload request",
  );
  return response;
}
