/**
 * `PUT /uploads/{token}` — the target of upload URLs (declared in the OpenAPI document by openapi-upload.ts). Not an operation of either door: no API key, no
 * session; the single-use token in the path is the credential (server/domain/documents/receive-upload.ts).
 * The body is handed over as a stream; nothing here reads or buffers it.
 */
import { randomUUID } from "node:crypto";
import { getDb } from "@/server/db/client";
import { receiveUpload } from "@/server/domain/documents/receive-upload";
import { errors } from "@/server/lib/errors";
import { BODY_CUT_OFF, isClientBodyError, watchClientBody } from "./client-body";
import { errorResponse, json } from "./errors";
import { logRequest } from "./request-log";
import type { TRouteContext } from "./route";

export async function uploadRoute(req: Request, context: TRouteContext): Promise<Response> {
  const started = performance.now();
  const requestId = randomUUID();
  const headers = { "X-Request-Id": requestId };
  let response: Response;
  let unexpected: unknown;
  try {
    const { token } = await context.params;
    const document = await receiveUpload(await getDb(), { token: typeof token === "string" ? token : "", body: req.body ? watchClientBody(req.body) : null });
    response = json({ data: document }, 200, headers);
  } catch (err) {
    // A client that went away mid-body: its failure (400, which it will likely never read), not ours (500).
    const mapped = errorResponse(isClientBodyError(err) ? errors.badRequest(BODY_CUT_OFF) : err, headers);
    // Logged once, on the request line below (a 500 with the error).
    if (mapped.unexpected) unexpected = err;
    response = mapped.response;
  }
  // The path holds the token: never logged.
  logRequest(
    {
      requestId,
      door: "upload",
      method: req.method,
      path: "/uploads/[token]",
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      ...(unexpected === undefined ? {} : { err: unexpected }),
    },
    "upload request",
  );
  return response;
}
