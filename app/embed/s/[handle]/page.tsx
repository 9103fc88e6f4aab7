import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { AuthenticationCheck } from "@/components/signing/authentication-check";
import { EmbedFrame } from "@/components/signing/embed-events";
import { EmbedSessionEnded } from "@/components/signing/embed-session-ended";
import { SigningEndPage } from "@/components/signing/signing-end-page";
import { SigningPage } from "@/components/signing/signing-page";
import { getDb } from "@/server/db/client";
import { embedSessionLive, findEmbedLink } from "@/server/domain/embedding/embed-link";
import { getSigningView } from "@/server/domain/signing/get-signing-view";
import { SigningRefusal } from "@/server/domain/signing/signing-refusal";

export const metadata: Metadata = { title: "Sign", referrer: "no-referrer", robots: { index: false, follow: false } };

type TProps = { params: Promise<{ handle: string }> };

/**
 * The embedded signing page (docs/decisions/embedded-signing.md): reached from a single-use embedded URL, inside
 * a frame on the one origin the URL was issued for (the HTTP server answers it with that `frame-ancestors`). Its
 * credential is the embed cookie; its handle (the link id) stands in for the token in every signing path. It
 * tells the framing page what happens (components/signing/embed-events.tsx).
 */
export default async function EmbedSignPage({ params }: TProps) {
  await connection();
  const { handle } = await params;
  const db = await getDb();
  const link = await findEmbedLink(db, handle);
  if (!link) notFound();
  const target = { origin: link.origin, packageId: link.packageId, sessionId: link.sessionId };
  const jar = Object.fromEntries((await cookies()).getAll().map((c) => [c.name, c.value]));
  const ended = "This embedded signing link was already used or has expired: ask for a new one";
  if (!embedSessionLive(link, jar)) {
    return (
      <EmbedFrame target={target} state="CLOSED" failure={ended}>
        <EmbedSessionEnded />
      </EmbedFrame>
    );
  }
  const view = await getSigningView(db, { token: handle, clientAddress: null, userAgent: null, cookies: jar }).catch((err: unknown) => {
    if (err instanceof SigningRefusal && err.reason === "NOT_FOUND") return null;
    throw err;
  });
  if (!view) {
    return (
      <EmbedFrame target={target} state="CLOSED" failure={ended}>
        <EmbedSessionEnded />
      </EmbedFrame>
    );
  }
  return (
    <EmbedFrame target={target} state={view.state}>
      {view.state === "AUTHENTICATION_REQUIRED" ? (
        <AuthenticationCheck token={handle} packageTitle={view.packageTitle} authentication={view.authentication} />
      ) : view.state === "CLOSED" ? (
        <SigningEndPage reason={view.reason} packageTitle={view.packageTitle} signedCopy={view.signedCopy} token={handle} />
      ) : (
        <SigningPage token={handle} initial={view} />
      )}
    </EmbedFrame>
  );
}
