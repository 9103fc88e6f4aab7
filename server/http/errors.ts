import { AppError } from "@/server/lib/errors";

export function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** A JSON answer whose text is already written (see `JsonText` in ./route.ts). */
export function jsonText(text: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/** Maps anything thrown to the spec's error body. Returns whether it was unexpected (to be logged as such). */
export function errorResponse(err: unknown, headers: Record<string, string> = {}): { response: Response; unexpected: boolean } {
  if (err instanceof AppError) {
    const body = err.details ? { error: err.message, details: err.details } : { error: err.message };
    return { response: json(body, err.status, { ...headers, ...err.headers }), unexpected: false };
  }
  return { response: json({ error: "Internal error" }, 500, headers), unexpected: true };
}
