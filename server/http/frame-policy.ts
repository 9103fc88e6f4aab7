/**
 * Who may frame a page (clickjacking; docs/decisions/embedded-signing.md): nobody — `frame-ancestors 'none'` on
 * every answer of the server — except an embedded signing page (`/embed/s/{linkId}`), which its link's one
 * origin may frame. Set by our HTTP server before Next answers (server/http-server.ts); an answer that sets its
 * own Content-Security-Policy (the embedded URL's redirect) replaces it.
 */
import { getDb } from "@/server/db/client";
import { findEmbedLink } from "@/server/domain/embedding/embed-link";

export const NO_FRAMING = "frame-ancestors 'none'";

const EMBED_PAGE = /^\/embed\/s\/([^/]+)\/?$/;

/** The Content-Security-Policy of a path's answer. */
export async function framePolicyFor(pathname: string): Promise<string> {
  const handle = EMBED_PAGE.exec(pathname)?.[1];
  if (!handle) return NO_FRAMING;
  const link = await findEmbedLink(await getDb(), handle);
  return link ? `frame-ancestors ${link.origin}` : NO_FRAMING;
}
