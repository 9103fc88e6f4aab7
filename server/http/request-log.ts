/**
 * The one log line of an answer. A route (./route.ts for both doors, ./upload-route.ts) writes one line per
 * request: at info below 500; for a 5xx at error (500) or warn (502–504), with what only the route knows — the
 * operation, and the error when it was unexpected. The HTTP server logs every 5xx whoever made it
 * (server/http-server.ts: Next answers some without logging anything), except those a route has logged: it
 * takes their request id from the set below, so each 5xx is logged once. The set lives on globalThis (the
 * routes run in Next's bundle, the server outside it) and is bounded: an id the server never takes (a route
 * called directly, as tests do) leaves it, oldest first.
 */
import { logger } from "@/server/lib/logger";

const KEY = Symbol.for("foliosign.logged-answers");
const slot = globalThis as Record<symbol, Set<string> | undefined>;
const MAX_PENDING = 1_000;

/** error for a 500, warn for another 5xx, info below. */
export function levelOf(status: number): "error" | "warn" | "info" {
  return status === 500 ? "error" : status > 500 ? "warn" : "info";
}

/** Writes a route's request line at its status's level; a 5xx is noted as logged for the HTTP server. */
export function logRequest(fields: { requestId: string; status: number; [field: string]: unknown }, msg: string): void {
  logger()[levelOf(fields.status)](fields, msg);
  if (fields.status < 500) return;
  const logged = (slot[KEY] ??= new Set());
  if (logged.size >= MAX_PENDING) logged.delete(logged.values().next().value!);
  logged.add(fields.requestId);
}

/** Whether a route already logged the 5xx answered under this request id (the id is forgotten either way). */
export function takeLoggedAnswer(requestId: string | undefined): boolean {
  return requestId !== undefined && (slot[KEY]?.delete(requestId) ?? false);
}
