/**
 * The caller's address as recorded by our own HTTP server (server/http-server.ts) from the socket.
 * The server deletes any copy of this header a client sends, so it cannot be forged from outside.
 */
export const CLIENT_ADDRESS_HEADER = "x-foliosign-client-address";

export function clientAddressOf(req: Request): string | null {
  const value = req.headers.get(CLIENT_ADDRESS_HEADER)?.trim();
  return value ? value : null;
}
