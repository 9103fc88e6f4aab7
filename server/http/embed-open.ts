/**
 * `GET /embed/sign/{token}`: opening an embedded signing URL (docs/decisions/embedded-signing.md). The token is
 * used up here, once; the answer sets the embed cookie (cross-site: the page lives in another site's frame) and
 * sends the frame on to `/embed/s/{linkId}`, whose address carries no credential. A used or expired URL goes to
 * the same page without a cookie, which tells its origin `error`; an unknown one is a plain 404 that no site may
 * frame.
 */
import { getDb } from "@/server/db/client";
import { openEmbedLink } from "@/server/domain/embedding/embed-link";
import { env } from "@/server/env";
import { NO_FRAMING } from "./frame-policy";
import { crossSiteCookie } from "./signer-cookie";
import { clientAddressOf } from "./steps/client-address";

const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

export async function openEmbeddedSigning(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  const opened = await openEmbedLink(await getDb(), { token, clientAddress: clientAddressOf(req), userAgent: req.headers.get("user-agent") });
  if (opened.kind === "unknown") {
    return new Response("<!doctype html><title>Not found</title><p>This signing link is not valid.</p>", {
      status: 404,
      headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": NO_FRAMING },
    });
  }
  const headers = new Headers({
    ...NO_STORE,
    Location: `${env().publicUrl}/embed/s/${opened.linkId}`,
    "Content-Security-Policy": `frame-ancestors ${opened.origin}`,
  });
  if (opened.kind === "opened") headers.set("Set-Cookie", crossSiteCookie(opened.cookie.name, opened.cookie.value));
  return new Response(null, { status: 303, headers });
}
