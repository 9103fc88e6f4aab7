/**
 * The HTTP server's part of a clean stop (server/start.ts, on SIGTERM/SIGINT): it stops taking connections, closes
 * idle keep-alive connections at once (and each one as it falls idle), lets requests in flight finish for `graceMs`,
 * then cuts whatever is still open. A client holding a connection open — a stalled upload, a request that never
 * ends, a browser left polling over keep-alive — can delay the stop by the grace at most, never keep the process
 * (and its worker) running after it was told to stop.
 */
import type http from "node:http";

/** How long requests in flight may take to finish after SIGTERM. */
export const SHUTDOWN_GRACE_MS = 10_000;

export function closeHttpServer(server: http.Server, graceMs: number = SHUTDOWN_GRACE_MS): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
