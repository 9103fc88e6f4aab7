/**
 * A stored answer, sent again: the same status and body bytes, this request's own headers (request id, rate
 * limit), and `Idempotent-Replayed: true` so a client can tell it did not act this time.
 */
import { json } from "../errors";

const REPLAYED_HEADER = "Idempotent-Replayed";

export function replayResponse(stored: { status: number; body: string }, headers: Record<string, string>): Response {
  const template = json(null, stored.status, { ...headers, [REPLAYED_HEADER]: "true" });
  return new Response(stored.body, { status: stored.status, headers: template.headers });
}
